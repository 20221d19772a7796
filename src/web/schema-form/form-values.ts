import type { FieldSpec, ObjectSpec, UnionSpec, UnionVariant } from './field-spec.ts';

/**
 * Form values and request bodies. The form holds what people typed (empty strings, unset numbers,
 * JSON text); the body holds only what they chose: empty fields, untouched optional groups and
 * defaults are left out, so the server applies its own defaults.
 */
export type FormValues = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Starting values: fixed values filled in, groups present so their fields have a home, lists empty. */
export function initialValues(spec: ObjectSpec): FormValues {
  const values: FormValues = {};
  for (const field of spec.fields) {
    const value = initialValue(field);
    if (value !== undefined) values[field.key] = value;
  }
  return values;
}

/** The value a new field (or a new list item) starts with. */
export function initialValue(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'const':
      return spec.value;
    case 'object':
      return initialValues(spec);
    case 'array':
    case 'files':
      return [];
    case 'union':
      return spec.variants[0] ? variantValue(spec, spec.variants[0]) : {};
    default:
      return undefined;
  }
}

/** A fresh value of one union variant: its tag and its own starting values. */
export function variantValue(spec: UnionSpec, variant: UnionVariant): FormValues {
  return { ...initialValues(variant.spec), [spec.discriminator]: variant.value };
}

/** The variant a union value currently is (by its tag), or the first. */
export function variantOf(spec: UnionSpec, value: unknown): UnionVariant | undefined {
  const tag = isRecord(value) ? value[spec.discriminator] : undefined;
  return spec.variants.find((v) => Object.is(v.value, tag)) ?? spec.variants[0];
}

/** The request body for the form's values (see the module comment). */
export function toBody(values: unknown, spec: ObjectSpec): FormValues {
  return objectBody(values, spec, true) ?? {};
}

function objectBody(value: unknown, spec: ObjectSpec, keepEmpty: boolean): FormValues | undefined {
  const source = isRecord(value) ? value : {};
  const body: FormValues = {};
  for (const field of spec.fields) {
    const fieldBody = bodyOf(source[field.key], field);
    if (fieldBody !== undefined) body[field.key] = fieldBody;
  }
  // An optional group nobody filled in (provider options, job options) is not sent at all, even
  // when it has required fields of its own: they apply only once the group is used.
  if (!keepEmpty && spec.fields.every((f) => f.kind === 'const' || isEmpty(body[f.key]))) return undefined;
  return body;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

function bodyOf(value: unknown, spec: FieldSpec): unknown {
  if (value === null) return spec.nullable ? null : undefined;
  switch (spec.kind) {
    case 'text':
    case 'aspect-ratio':
      return typeof value === 'string' && value !== '' ? value : undefined;
    case 'url':
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    case 'number':
      return numberOf(value);
    case 'choice':
      return value === '' ? undefined : value;
    case 'const':
      return spec.value;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'object': {
      const body = objectBody(value, spec, spec.required);
      return body;
    }
    case 'union': {
      const variant = variantOf(spec, value);
      if (!variant) return undefined;
      return objectBody(value, variant.spec, true);
    }
    case 'array':
    case 'files':
      return arrayBody(value, spec);
    case 'json':
      return jsonOf(value);
  }
}

function numberOf(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  // Not a number: sent as typed, so validation names the problem instead of dropping it silently.
  return Number.isFinite(parsed) ? parsed : value;
}

function arrayBody(
  value: unknown,
  spec: Extract<FieldSpec, { kind: 'array' | 'files' }>,
): unknown[] | undefined {
  const items = Array.isArray(value) ? value : [];
  const body =
    spec.kind === 'files'
      ? items.map((item) => ({ url: isRecord(item) && typeof item.url === 'string' ? item.url.trim() : '' }))
      : items.map((item) => {
          const itemBody = bodyOf(item, spec.item);
          // Keep positions: an empty item stays, so errors point at the right row.
          return itemBody === undefined ? (spec.item.kind === 'object' ? {} : null) : itemBody;
        });
  // An empty list is "not given" unless the schema asks for items (then the server says how many).
  if (body.length === 0 && !spec.required && !(spec.minItems && spec.minItems > 0)) return undefined;
  return body;
}

/** JSON fields hold text; text that is not JSON is sent as typed so validation can say so. */
function jsonOf(value: unknown): unknown {
  if (typeof value !== 'string') return value === undefined ? undefined : value;
  if (value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Values for the form from a request body (a rerun with changes): JSON fields become text again. */
export function fromBody(body: unknown, spec: ObjectSpec): FormValues {
  const values = initialValues(spec);
  if (!isRecord(body)) return values;
  for (const field of spec.fields) {
    if (field.key in body) values[field.key] = valueFromBody(body[field.key], field);
  }
  return values;
}

function valueFromBody(value: unknown, spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'json':
      return value === undefined ? undefined : JSON.stringify(value, null, 2);
    case 'object':
      return fromBody(value, spec);
    case 'union': {
      const variant = variantOf(spec, value);
      return variant ? { ...fromBody(value, variant.spec), [spec.discriminator]: variant.value } : value;
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => valueFromBody(item, spec.item)) : [];
    default:
      return value;
  }
}

/**
 * Starting values under saved ones (a draft from an earlier visit): groups merge key by key, so a
 * field the schema gained since still has its home; lists and plain values come from the draft.
 */
export function withDraft(initial: FormValues, draft: unknown): FormValues {
  if (!isRecord(draft)) return initial;
  const merged: FormValues = { ...initial };
  for (const [key, value] of Object.entries(draft)) {
    const base = initial[key];
    merged[key] = isRecord(base) && isRecord(value) ? withDraft(base, value) : value;
  }
  return merged;
}
