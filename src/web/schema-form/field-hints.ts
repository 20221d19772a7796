import type { FieldSpec, NumberBounds } from './field-spec.ts';

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
/** Bounds this large are "any size" to a person (a seed up to 2^53): not worth a hint. */
const HUGE = 2 ** 31;

function shown(value: number | undefined): value is number {
  return value !== undefined && Math.abs(value) < HUGE;
}

/** "1 to 60", "more than 0", "at most 600", "whole number, 1 to 4". */
export function numberHint(spec: NumberBounds, unit?: string): string | undefined {
  const suffix = unit ? ` ${unit}` : '';
  const low = shown(spec.exclusiveMinimum)
    ? spec.minimum !== undefined && spec.minimum > spec.exclusiveMinimum
      ? { value: spec.minimum, strict: false }
      : { value: spec.exclusiveMinimum, strict: true }
    : shown(spec.minimum)
      ? { value: spec.minimum, strict: false }
      : undefined;
  const high = shown(spec.exclusiveMaximum)
    ? { value: spec.exclusiveMaximum, strict: true }
    : shown(spec.maximum)
      ? { value: spec.maximum, strict: false }
      : undefined;
  let range: string | undefined;
  if (low && high && !low.strict && !high.strict) {
    range = `${number.format(low.value)} to ${number.format(high.value)}${suffix}`;
  } else {
    const parts = [
      low && `${low.strict ? 'more than' : 'at least'} ${number.format(low.value)}${suffix}`,
      high && `${high.strict ? 'less than' : 'at most'} ${number.format(high.value)}${suffix}`,
    ].filter(Boolean);
    range = parts.length ? parts.join(', ') : undefined;
  }
  const kind = spec.integer ? 'whole number' : undefined;
  const step = spec.multipleOf ? `in steps of ${number.format(spec.multipleOf)}` : undefined;
  const text = [kind, range, step].filter(Boolean).join(', ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : undefined;
}

/** "Up to 2,000 characters", "1 to 10,000 characters". */
export function lengthHint(min: number | undefined, max: number | undefined): string | undefined {
  if (max !== undefined && min !== undefined && min > 1) {
    return `${number.format(min)} to ${number.format(max)} characters`;
  }
  if (max !== undefined) return `Up to ${number.format(max)} characters`;
  if (min !== undefined && min > 1) return `At least ${number.format(min)} characters`;
  return undefined;
}

/** "Operations" → "Operation": the name of one row of a list. */
export function singular(label: string): string {
  if (/ies$/i.test(label)) return label.replace(/ies$/i, 'y');
  if (/[^s]s$/i.test(label)) return label.slice(0, -1);
  return label || 'Item';
}

/** "Up to 10", "Exactly 1", "2 to 10", "At least 1". */
export function countHint(
  min: number | undefined,
  max: number | undefined,
  noun = 'item',
): string | undefined {
  const plural = (n: number) => `${number.format(n)} ${noun}${n === 1 ? '' : 's'}`;
  if (max === 0) return `None for this model`;
  if (min !== undefined && max !== undefined && min === max) return `Exactly ${plural(min)}`;
  if (min && max !== undefined) return `${number.format(min)} to ${plural(max)}`;
  if (max !== undefined) return `Up to ${plural(max)}`;
  if (min) return `At least ${plural(min)}`;
  return undefined;
}

/** The limit a field shows in place, below its label. */
export function limitHint(spec: FieldSpec): string | undefined {
  switch (spec.kind) {
    case 'text':
      return spec.multiline ? undefined : lengthHint(spec.minLength, spec.maxLength);
    case 'number':
      return numberHint(spec, spec.unit === 's' ? 's' : undefined);
    case 'array':
      return countHint(spec.minItems, spec.maxItems, singular(spec.label).toLowerCase());
    case 'files':
      return countHint(spec.minItems, spec.maxItems, 'file');
    default:
      return undefined;
  }
}

/** The numbers a text mentions ("Seconds, 1 to 60" → 1, 60; "10,000" → 10000). */
function numbersIn(text: string): Set<number> {
  return new Set([...text.replaceAll(',', '').matchAll(/-?\d+(\.\d+)?/g)].map((m) => Number(m[0])));
}

/** The limits a field's hint states, as numbers (to see whether its description says them already). */
function limitNumbers(spec: FieldSpec): number[] {
  switch (spec.kind) {
    case 'text':
      return [spec.minLength, spec.maxLength].filter((n): n is number => n !== undefined && n > 1);
    case 'number':
      return [spec.minimum, spec.maximum, spec.exclusiveMinimum, spec.exclusiveMaximum].filter(
        (n): n is number => n !== undefined && Math.abs(n) < HUGE,
      );
    case 'array':
    case 'files':
      return [spec.minItems, spec.maxItems].filter((n): n is number => n !== undefined && n > 0);
    default:
      return [];
  }
}

/**
 * Description and limit as one hint line, the description first. A description that already names
 * the limits ("Seconds, 1 to 60.") is not followed by the same limits again.
 */
export function hintOf(spec: FieldSpec): string | undefined {
  const limit = limitHint(spec);
  const said = spec.description ? numbersIn(spec.description) : new Set<number>();
  const wanted = limitNumbers(spec);
  // A bound of 0 goes without saying ("Seconds, up to 600" for a positive duration).
  const repeated = wanted.length > 0 && wanted.every((n) => n === 0 || said.has(n));
  const parts = [spec.description, repeated ? undefined : limit].filter((p): p is string => Boolean(p));
  if (parts.length === 0) return undefined;
  return parts.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join(' ');
}

/** What an empty field means: the schema's default, when it has one. */
export function placeholderOf(spec: FieldSpec): string | undefined {
  if (spec.defaultValue === undefined || spec.defaultValue === null) return undefined;
  return `Default: ${typeof spec.defaultValue === 'string' ? spec.defaultValue : JSON.stringify(spec.defaultValue)}`;
}
