/** The JSON Schema (draft 2020-12) keywords the tool schemas use, as the form reads them. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: JsonType | JsonType[];
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  /** OpenAPI 3.0 style; JSON Schema proper says `type: [..., 'null']`. */
  nullable?: boolean;
}

/** A schema from the wire: any object is taken as a schema (unknown keywords are ignored). */
export function asSchema(value: unknown): JsonSchema {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : {};
}

/**
 * Follows `$ref`s into the root's `$defs`, merging the referring schema's own annotations
 * (description, default) over the target. Unknown or cyclic references give null.
 */
export function resolveRef(schema: JsonSchema, root: JsonSchema, seen: ReadonlySet<string> = new Set()) {
  let current = schema;
  const visited = new Set(seen);
  while (current.$ref) {
    const ref = current.$ref;
    if (visited.has(ref) || !ref.startsWith('#/$defs/')) return null;
    visited.add(ref);
    const target = root.$defs?.[decodeURIComponent(ref.slice('#/$defs/'.length))];
    if (!target) return null;
    const { $ref: _ref, ...annotations } = current;
    current = { ...target, ...annotations };
  }
  return { schema: current, seen: visited };
}

/** The non-null types a schema declares (a `type` array with `null` means nullable). */
export function typesOf(schema: JsonSchema): { types: JsonType[]; nullable: boolean } {
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const types = declared.filter((type) => type !== 'null');
  return { types, nullable: declared.includes('null') || schema.nullable === true };
}

const ACRONYMS = new Set(['url', 'id', 'fps', 'json', 'api', 'vtt', 'hd']);

/** "aspect_ratio" → "Aspect ratio", "video_url" → "Video URL". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
