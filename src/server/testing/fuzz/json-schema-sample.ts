/**
 * Just enough JSON Schema (as our OpenAPI document writes it) to build a plausible request from a schema
 * and to list the fields a fuzzer can aim at. Not a validator: the server is the judge.
 */

export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
};

export interface SampleContext {
  /** The document's `components.schemas`, for `$ref`. */
  schemas: Record<string, Schema>;
  /** Strings tried, in order, against a `pattern` (real ids of the fixture first). */
  candidates: readonly string[];
  /** Values for string formats (`uri` → a URL the server accepts, `uuid` → a real folder id...). */
  formats: Record<string, string>;
  /** Values by property name, where the schema alone says too little (an email checked by a refinement...). */
  byName: Record<string, unknown>;
  /** When an object requires nothing but a refinement wants one of its fields, the first of these present. */
  optionalPicks: readonly string[];
}

export function resolve(schema: Schema, ctx: SampleContext): Schema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = ctx.schemas[name] ?? {};
  }
  return current;
}

/** The schema a value is checked against: the first non-null branch of a union, allOf merged. */
export function branch(schema: Schema, ctx: SampleContext): { schema: Schema; union: boolean } {
  const resolved = resolve(schema, ctx);
  const options = resolved.anyOf ?? resolved.oneOf;
  if (options) {
    const first = options.map((o) => resolve(o, ctx)).find((o) => o.type !== 'null') ?? {};
    return { schema: { ...first, ...withoutUnion(resolved) }, union: true };
  }
  if (resolved.allOf) {
    return {
      schema: Object.assign({}, ...resolved.allOf.map((s) => resolve(s, ctx)), { allOf: undefined }),
      union: false,
    };
  }
  return { schema: resolved, union: false };
}

function withoutUnion(schema: Schema): Schema {
  const { anyOf: _a, oneOf: _o, ...rest } = schema;
  // A union with its own `type: object` and free-form properties (ToolCallRequest) keeps the branch's shape.
  return rest.properties ? rest : {};
}

export function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  if (schema.enum) return typeof schema.enum[0];
  return undefined;
}

function sampleString(schema: Schema, ctx: SampleContext): string {
  if (schema.format && ctx.formats[schema.format]) return ctx.formats[schema.format]!;
  let value = 'fuzz';
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    value = ctx.candidates.find((c) => pattern.test(c)) ?? value;
  }
  if (schema.minLength && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'a');
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    value = value.slice(0, schema.maxLength);
  return value;
}

function sampleNumber(schema: Schema): number {
  if (typeof schema.default === 'number') return schema.default;
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  return schema.maximum !== undefined ? Math.min(low, schema.maximum) : low;
}

/** A value that satisfies what the schema says (required fields only), or comes close. */
export function sample(schema: Schema, ctx: SampleContext, depth = 0, name?: string): unknown {
  if (name !== undefined && name in ctx.byName) return structuredClone(ctx.byName[name]);
  const { schema: s } = branch(schema, ctx);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      return sampleString(s, ctx);
    case 'integer':
    case 'number':
      return sampleNumber(s);
    case 'boolean':
      return typeof s.default === 'boolean' ? s.default : false;
    case 'array': {
      const count = Math.max(s.minItems ?? 0, 0);
      return depth > 6 || !s.items
        ? []
        : Array.from({ length: count }, () => sample(s.items!, ctx, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      const required = s.required ?? [];
      const pick = required.length === 0 ? ctx.optionalPicks.find((p) => s.properties?.[p]) : undefined;
      for (const key of pick ? [pick] : required) {
        const property = s.properties?.[key];
        if (property) out[key] = sample(property, ctx, depth + 1, key);
      }
      return out;
    }
    default:
      return typeof s.default === 'string' ? s.default : 'fuzz';
  }
}

/** One field a fuzzer can aim at: its path and its schema; `loose` when a union or free-form map holds it. */
export interface FieldTarget {
  path: Array<string | number>;
  schema: Schema;
  loose: boolean;
}

/** Every property reachable from the schema (into the first item of arrays), up to a depth. */
export function fieldTargets(schema: Schema, ctx: SampleContext, maxDepth = 4): FieldTarget[] {
  const out: FieldTarget[] = [];
  const walk = (current: Schema, path: Array<string | number>, loose: boolean) => {
    if (path.length > maxDepth) return;
    const { schema: s, union } = branch(current, ctx);
    const isLoose = loose || union;
    if (path.length > 0) out.push({ path, schema: s, loose: isLoose });
    const type = typeOf(s);
    if (type === 'object') {
      for (const [name, property] of Object.entries(s.properties ?? {}))
        walk(property, [...path, name], isLoose);
    } else if (type === 'array' && s.items) {
      walk(s.items, [...path, 0], isLoose);
    }
  };
  walk(schema, [], false);
  return out;
}

/**
 * A copy of `root` with `value` at `path`, creating what lies between from the schema (so the siblings the
 * schema requires are there and the request fails, if it fails, on this field).
 */
export function withField(
  root: unknown,
  rootSchema: Schema,
  path: ReadonlyArray<string | number>,
  value: unknown,
  ctx: SampleContext,
): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let holder = copy;
  let schema = rootSchema;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      holder[key] = value;
      return;
    }
    const { schema: s } = branch(schema, ctx);
    const child = typeof key === 'number' ? s.items : s.properties?.[key];
    schema = child ?? {};
    if (typeof holder[key] !== 'object' || holder[key] === null)
      holder[key] = sample(schema, ctx, 0, String(key));
    const next = holder[key];
    if (Array.isArray(next) && next.length === 0)
      next.push(sample(branch(schema, ctx).schema.items ?? {}, ctx));
    holder = holder[key] as Record<string | number, unknown>;
  });
  return copy;
}
