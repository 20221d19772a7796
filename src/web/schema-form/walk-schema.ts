import { colourName, isHexColour } from '../format/colour-name.ts';
import type { ChoiceOption, FieldSpec, ObjectSpec, UnionVariant } from './field-spec.ts';
import { humanize, type JsonSchema, resolveRef, typesOf } from './json-schema.ts';

/** The `<w>:<h>` pattern of the contract's aspect ratios. */
const ASPECT_RATIO_PATTERN = '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$';
const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';
/** Free-text fields people write at length, whatever their limit. */
const LONG_TEXT_KEYS = new Set(['prompt', 'text', 'negative_prompt', 'lyrics', 'style_prompt']);
const LONG_TEXT_MIN_LENGTH = 500;

interface Context {
  root: JsonSchema;
  /** `$ref`s being expanded above this node (a schema that refers to itself becomes JSON). */
  seen: ReadonlySet<string>;
}

interface Placement {
  key: string;
  required: boolean;
}

/** Walks an object schema (a tool's `input_schema`) into the fields the form draws. */
export function walkSchema(root: JsonSchema): ObjectSpec {
  const spec = walkField(root, { key: '', required: true }, { root, seen: new Set() });
  if (spec.kind === 'object') return spec;
  return { ...spec, kind: 'object', fields: [], closed: false };
}

function base(schema: JsonSchema, at: Placement, nullable: boolean) {
  return {
    key: at.key,
    // A title is the schema's own name for the field (provider groups are titled by provider id).
    label: schema.title ?? (at.key ? humanize(at.key) : ''),
    description: schema.description,
    required: at.required,
    nullable,
    defaultValue: schema.default,
    examples: Array.isArray(schema.examples) ? schema.examples : [],
  };
}

function walkField(raw: JsonSchema, at: Placement, ctx: Context): FieldSpec {
  const resolved = resolveRef(raw, ctx.root, ctx.seen);
  if (!resolved) return { ...base(raw, at, false), kind: 'json', expects: 'any' };
  const schema = resolved.schema;
  const inner: Context = { root: ctx.root, seen: resolved.seen };
  const { types, nullable } = typesOf(schema);

  if (schema.const !== undefined)
    return { ...base(schema, at, nullable), kind: 'const', value: schema.const };
  if (Array.isArray(schema.enum)) return choice(schema, at, nullable, schema.enum);

  const branches = schema.oneOf ?? schema.anyOf;
  if (branches && types.length === 0) return walkBranches(schema, branches, at, inner, nullable);
  if (schema.allOf?.length === 1 && types.length === 0) {
    const [only] = schema.allOf;
    if (only) return walkField({ ...only, ...withoutAllOf(schema) }, at, inner);
  }
  if (types.length > 1) return { ...base(schema, at, nullable), kind: 'json', expects: 'any' };

  switch (types[0]) {
    case 'string':
      return walkString(schema, at, nullable);
    case 'number':
    case 'integer':
      return {
        ...base(schema, at, nullable),
        kind: 'number',
        integer: types[0] === 'integer',
        minimum: schema.minimum,
        maximum: schema.maximum,
        exclusiveMinimum: exclusiveBound(schema.exclusiveMinimum, schema.minimum),
        exclusiveMaximum: exclusiveBound(schema.exclusiveMaximum, schema.maximum),
        multipleOf: schema.multipleOf,
        unit: at.key === 'duration' ? 's' : undefined,
      };
    case 'boolean':
      return { ...base(schema, at, nullable), kind: 'boolean' };
    case 'array':
      return walkArray(schema, at, inner, nullable);
    case 'object':
      return walkObject(schema, at, inner, nullable);
    default:
      // No type: an object shape still reads as one; anything else is free JSON.
      if (schema.properties) return walkObject(schema, at, inner, nullable);
      return { ...base(schema, at, nullable), kind: 'json', expects: 'any' };
  }
}

function withoutAllOf(schema: JsonSchema): JsonSchema {
  const { allOf: _allOf, ...rest } = schema;
  return rest;
}

/** Draft 4 wrote `exclusiveMinimum: true` next to `minimum`; 2020-12 writes the bound itself. */
function exclusiveBound(value: number | boolean | undefined, bound: number | undefined): number | undefined {
  if (typeof value === 'number') return value;
  return value === true ? bound : undefined;
}

function choice(schema: JsonSchema, at: Placement, nullable: boolean, values: readonly unknown[]): FieldSpec {
  const options: ChoiceOption[] = values
    .filter((value) => value !== null)
    // A colour code reads as its colour's name (the widget draws a swatch beside it); two alike keep the code.
    .map((value) => ({ value, label: (isHexColour(value) && colourName(value)) || String(value) }));
  const alike = (label: string) => options.filter((o) => o.label === label).length > 1;
  const shared = new Set(options.filter((o) => isHexColour(o.value) && alike(o.label)));
  for (const option of shared) option.label = `${option.label} (${String(option.value)})`;
  const isAspect = at.key === 'aspect_ratio' && options.every((o) => typeof o.value === 'string');
  if (isAspect) {
    return {
      ...base(schema, at, nullable || values.includes(null)),
      kind: 'aspect-ratio',
      choices: options.map((o) => String(o.value)),
      pattern: schema.pattern,
    };
  }
  return {
    ...base(schema, at, nullable || values.includes(null)),
    kind: 'choice',
    options,
    unit: at.key === 'duration' ? 's' : undefined,
  };
}

function walkString(schema: JsonSchema, at: Placement, nullable: boolean): FieldSpec {
  if (schema.format === 'uri' || schema.format === 'url') {
    return { ...base(schema, at, nullable), kind: 'url', maxLength: schema.maxLength };
  }
  if (at.key === 'aspect_ratio' || schema.pattern === ASPECT_RATIO_PATTERN) {
    return { ...base(schema, at, nullable), kind: 'aspect-ratio', choices: null, pattern: schema.pattern };
  }
  return {
    ...base(schema, at, nullable),
    kind: 'text',
    multiline: LONG_TEXT_KEYS.has(at.key) || (schema.maxLength ?? 0) >= LONG_TEXT_MIN_LENGTH,
    minLength: schema.minLength,
    maxLength: schema.maxLength,
    pattern: schema.pattern,
    format: schema.format,
    color: schema.pattern === COLOR_PATTERN,
  };
}

function walkObject(schema: JsonSchema, at: Placement, ctx: Context, nullable: boolean): FieldSpec {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  const extra = schema.additionalProperties;
  // A record (`additionalProperties: <schema>`, `propertyNames`) has no fixed fields to draw.
  if (keys.length === 0 && extra !== false) {
    return { ...base(schema, at, nullable), kind: 'json', expects: 'object' };
  }
  const required = new Set(schema.required ?? []);
  return {
    ...base(schema, at, nullable),
    kind: 'object',
    fields: keys.map((key) => walkField(properties[key] ?? {}, { key, required: required.has(key) }, ctx)),
    closed: extra === false,
  };
}

function walkArray(schema: JsonSchema, at: Placement, ctx: Context, nullable: boolean): FieldSpec {
  const bounds = { minItems: schema.minItems, maxItems: schema.maxItems };
  const item = walkField(schema.items ?? {}, { key: '', required: true }, ctx);
  if (isInputFile(item)) return { ...base(schema, at, nullable), kind: 'files', ...bounds };
  // Rows are objects (operations, layers, steps); a list of plain values is written as JSON.
  if (item.kind !== 'object' && item.kind !== 'union') {
    return { ...base(schema, at, nullable), kind: 'json', expects: 'any' };
  }
  return { ...base(schema, at, nullable), kind: 'array', item, ...bounds };
}

/** `{ url }` and nothing else: an input file. */
function isInputFile(item: FieldSpec): boolean {
  return (
    item.kind === 'object' &&
    item.fields.length === 1 &&
    item.fields[0]?.kind === 'url' &&
    item.fields[0].key === 'url'
  );
}

function walkBranches(
  schema: JsonSchema,
  branches: readonly JsonSchema[],
  at: Placement,
  ctx: Context,
  nullable: boolean,
): FieldSpec {
  const resolved = branches.map((branch) => resolveRef(branch, ctx.root, ctx.seen));
  if (resolved.some((r) => r === null))
    return { ...base(schema, at, nullable), kind: 'json', expects: 'any' };
  const schemas = resolved.map((r) => r?.schema ?? {});
  const isNull = (s: JsonSchema) => s.type === 'null' || s.const === null;
  const rest = schemas.filter((s) => !isNull(s));
  const orNull = nullable || rest.length < schemas.length;
  const annotations = { description: schema.description, default: schema.default, title: schema.title };

  // `anyOf: [X, { type: 'null' }]`: X, nullable.
  if (rest.length === 1 && rest[0]) {
    const only = walkField({ ...rest[0], ...defined(annotations) }, at, ctx);
    return { ...only, nullable: orNull };
  }
  // Every branch a single value: a choice.
  const values = rest.map(singleValue);
  if (values.every((v) => v.ok)) {
    return choice(
      schema,
      at,
      orNull,
      values.map((v) => v.value),
    );
  }
  const union = discriminatedUnion(rest, ctx);
  if (union) return { ...base(schema, at, orNull), kind: 'union', ...union };
  return { ...base(schema, at, orNull), kind: 'json', expects: 'any' };
}

function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

function singleValue(schema: JsonSchema): { ok: boolean; value: unknown } {
  if (schema.const !== undefined) return { ok: true, value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return { ok: true, value: schema.enum[0] };
  return { ok: false, value: undefined };
}

/** Object branches sharing one property whose `const` tells them apart: `{ op: 'resize', ... }`. */
function discriminatedUnion(
  branches: readonly JsonSchema[],
  ctx: Context,
): { discriminator: string; variants: UnionVariant[] } | null {
  const first = branches[0];
  if (!first?.properties) return null;
  for (const key of Object.keys(first.properties)) {
    const tags = branches.map((branch) => {
      const property = branch.properties?.[key];
      const resolved = property ? resolveRef(property, ctx.root, ctx.seen) : null;
      return resolved ? singleValue(resolved.schema) : { ok: false, value: undefined };
    });
    if (!tags.every((t) => t.ok)) continue;
    if (new Set(tags.map((t) => JSON.stringify(t.value))).size !== tags.length) continue;
    const variants = branches.map((branch, index): UnionVariant => {
      const spec = walkObject(branch, { key: '', required: true }, ctx, false);
      const value = tags[index]?.value;
      return {
        value,
        label: branch.title ?? humanize(String(value)),
        description: branch.description,
        spec: spec.kind === 'object' ? spec : { ...spec, kind: 'object', fields: [], closed: false },
      };
    });
    return { discriminator: key, variants };
  }
  return null;
}
