import { InvalidArgumentError, Option } from 'commander';

/** The part of a JSON Schema the flags are made from. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  examples?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  [key: string]: unknown;
}

/** One generated flag: the body field it fills, and how. */
export interface SchemaFlag {
  field: string;
  /** Commander's attribute name for the flag. */
  attribute: string;
  option: Option;
}

/** `aspect_ratio` → `--aspect-ratio`. */
export function flagName(field: string): string {
  return field.replace(/_/g, '-');
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  const variant = schema.anyOf?.find((s) => s.type && s.type !== 'null');
  return variant ? typeOf(variant) : undefined;
}

/** "integer, 1 to 600", "one of: a, b", "at most 2000 characters", "default 30", "required". */
export function describeLimits(schema: JsonSchema, required: boolean): string {
  const parts: string[] = [];
  const type = typeOf(schema);
  if (schema.enum) parts.push(`one of: ${schema.enum.join(', ')}`);
  else if (type === 'integer' || type === 'number') {
    const word = type === 'integer' ? 'whole number' : 'number';
    const min =
      schema.minimum ?? (schema.exclusiveMinimum !== undefined ? `>${schema.exclusiveMinimum}` : undefined);
    if (min !== undefined && schema.maximum !== undefined) parts.push(`${word}, ${min} to ${schema.maximum}`);
    else if (min !== undefined) parts.push(`${word}, at least ${min}`);
    else if (schema.maximum !== undefined) parts.push(`${word}, at most ${schema.maximum}`);
    else parts.push(word);
  } else if (type === 'string') {
    if (schema.minLength && schema.maxLength)
      parts.push(`${schema.minLength} to ${schema.maxLength} characters`);
    else if (schema.maxLength) parts.push(`at most ${schema.maxLength} characters`);
  } else if (type === 'object' || type === 'array') {
    parts.push(`JSON ${type}${schema.maxItems ? `, at most ${schema.maxItems} items` : ''}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  if (required) parts.push('required');
  return parts.length ? ` (${parts.join('; ')})` : '';
}

function parserFor(field: string, schema: JsonSchema): ((value: string) => unknown) | null {
  const type = typeOf(schema);
  if (schema.enum) return null;
  if (type === 'integer' || type === 'number') {
    return (value) => {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number)) {
        throw new InvalidArgumentError(`${field} must be a number.`);
      }
      if (type === 'integer' && !Number.isInteger(number)) {
        throw new InvalidArgumentError(`${field} must be a whole number.`);
      }
      if (schema.minimum !== undefined && number < schema.minimum) {
        throw new InvalidArgumentError(`${field} must be at least ${schema.minimum}.`);
      }
      if (schema.maximum !== undefined && number > schema.maximum) {
        throw new InvalidArgumentError(`${field} must be at most ${schema.maximum}.`);
      }
      return number;
    };
  }
  if (type === 'object' || type === 'array') {
    return (value) => {
      try {
        return JSON.parse(value);
      } catch {
        throw new InvalidArgumentError(`${field} must be JSON (${type}).`);
      }
    };
  }
  if (type === 'string' && schema.maxLength !== undefined) {
    const max = schema.maxLength;
    return (value) => {
      if (value.length > max) throw new InvalidArgumentError(`${field} must be at most ${max} characters.`);
      return value;
    };
  }
  return null;
}

/** A property given as `{ $ref: '#/$defs/X' }` (named schemas of the contract), with its definition's fields. */
function resolveRef(root: JsonSchema, property: JsonSchema): JsonSchema {
  const ref = property.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return property;
  const target = root.$defs?.[ref.slice('#/$defs/'.length)];
  return target ? { ...target, ...property } : property;
}

/**
 * One flag per top-level field of a tool's input schema, with its description and limits in the help,
 * enums as choices and numbers checked, so a bad value is refused before anything is sent. Fields in
 * `skip` are filled another way (`files` by `--file`).
 */
export function flagsFromSchema(schema: JsonSchema, skip: ReadonlySet<string>): SchemaFlag[] {
  const required = new Set(schema.required ?? []);
  const flags: SchemaFlag[] = [];
  for (const [field, declared] of Object.entries(schema.properties ?? {})) {
    if (skip.has(field)) continue;
    const property = resolveRef(schema, declared);
    const type = typeOf(property);
    const name = flagName(field);
    const description = (property.description ?? field).replace(/\s+/g, ' ').trim();
    const examples =
      field === 'model' && Array.isArray(property.examples) && property.examples.length
        ? ` Models: ${property.examples.join(', ')}.`
        : '';
    const option =
      type === 'boolean'
        ? new Option(`--${name}`, `${description}${describeLimits(property, false)}`)
        : new Option(
            `--${name} <${type === 'integer' || type === 'number' ? 'n' : type === 'string' ? 'text' : 'json'}>`,
            `${description}${examples}${describeLimits(property, required.has(field))}`,
          );
    if (property.enum) option.choices(property.enum.map(String));
    const parse = parserFor(field, property);
    if (parse) option.argParser(parse);
    flags.push({ field, attribute: option.attributeName(), option });
  }
  return flags;
}
