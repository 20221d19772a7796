/**
 * What the form draws for a schema: the JSON Schema walked into one node per field, each naming the
 * widget it needs and the limits it shows as hints. Built by walk-schema.ts.
 */
interface FieldBase {
  /** Property name in the parent object (empty for array items and the root). */
  key: string;
  label: string;
  description: string | undefined;
  required: boolean;
  /** The schema also allows null. */
  nullable: boolean;
  /** The schema's default: shown as a placeholder, never sent (the server applies it). */
  defaultValue: unknown;
  examples: readonly unknown[];
}

export interface TextSpec extends FieldBase {
  kind: 'text';
  multiline: boolean;
  minLength: number | undefined;
  maxLength: number | undefined;
  pattern: string | undefined;
  format: string | undefined;
  /** `#rrggbb`: drawn with a colour swatch. */
  color: boolean;
}

/** A string with `format: uri` (input media by URL: video_url, audio_url, webhook_url). */
export interface UrlSpec extends FieldBase {
  kind: 'url';
  maxLength: number | undefined;
}

export interface AspectRatioSpec extends FieldBase {
  kind: 'aspect-ratio';
  /** The model's allowed ratios, or null when any `<w>:<h>` goes. */
  choices: string[] | null;
  pattern: string | undefined;
}

export interface NumberBounds {
  integer: boolean;
  minimum: number | undefined;
  maximum: number | undefined;
  exclusiveMinimum: number | undefined;
  exclusiveMaximum: number | undefined;
  multipleOf: number | undefined;
}

export interface NumberSpec extends FieldBase, NumberBounds {
  kind: 'number';
  /** Seconds (a `duration` field). */
  unit: 's' | undefined;
}

export interface ChoiceOption {
  value: unknown;
  label: string;
}

/** `enum`, or an `anyOf`/`oneOf` of `const`s. */
export interface ChoiceSpec extends FieldBase {
  kind: 'choice';
  options: ChoiceOption[];
  unit: 's' | undefined;
}

/** A fixed value (`const`), such as the tag of a union variant: sent, never edited. */
export interface ConstSpec extends FieldBase {
  kind: 'const';
  value: unknown;
}

export interface BooleanSpec extends FieldBase {
  kind: 'boolean';
}

export interface ObjectSpec extends FieldBase {
  kind: 'object';
  fields: FieldSpec[];
  /** `additionalProperties: false`: only the listed fields are accepted. */
  closed: boolean;
}

export interface ArraySpec extends FieldBase {
  kind: 'array';
  item: FieldSpec;
  minItems: number | undefined;
  maxItems: number | undefined;
}

/** An array of `{ url }` input files (the `files` of generation requests). */
export interface FilesSpec extends FieldBase {
  kind: 'files';
  minItems: number | undefined;
  maxItems: number | undefined;
}

export interface UnionVariant {
  value: unknown;
  label: string;
  description: string | undefined;
  spec: ObjectSpec;
}

/** `oneOf`/`anyOf` of objects told apart by one `const` property (ffmpeg operations, render layers). */
export interface UnionSpec extends FieldBase {
  kind: 'union';
  discriminator: string;
  variants: UnionVariant[];
}

/** Anything the form cannot draw field by field (free-form records): edited as JSON text. */
export interface JsonSpec extends FieldBase {
  kind: 'json';
  expects: 'object' | 'any';
}

export type FieldSpec =
  | TextSpec
  | UrlSpec
  | AspectRatioSpec
  | NumberSpec
  | ChoiceSpec
  | ConstSpec
  | BooleanSpec
  | ObjectSpec
  | ArraySpec
  | FilesSpec
  | UnionSpec
  | JsonSpec;

export type FieldKind = FieldSpec['kind'];
