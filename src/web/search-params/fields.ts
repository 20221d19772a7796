/*
 * Reading a route's search params (and path params) without zod. Every route's `validateSearch` runs in
 * the console's first chunk (the router needs it before any page loads), so building them on zod put zod
 * and the contract's schemas into every first visit. A field here reads one value and
 * answers it, or undefined when the value does not fit: a bad or old link drops the value, never breaks
 * the page. The plain values and id checks come from contract/values.ts, which the zod schemas of the
 * server are built from.
 */

/** Reads one search value: the value kept, or undefined to drop it. */
export type Field<T> = (raw: unknown) => T | undefined;

type Fields = Record<string, Field<unknown>>;
/** What a set of fields reads: each key optional, absent when its value was missing or dropped. */
export type SearchOf<F extends Fields> = { [K in keyof F]?: F[K] extends Field<infer T> ? T : never };

/** A route's `validateSearch`: reads each field, keeps the values that fit, drops unknown keys. */
export function searchParams<const F extends Fields>(
  fields: F,
): (raw: Record<string, unknown>) => SearchOf<F> {
  return (raw) => {
    const search: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(fields)) {
      const value = field(raw[name]);
      if (value !== undefined) search[name] = value;
    }
    return search as SearchOf<F>;
  };
}

interface TextRules {
  /** Trim white space first (the kept value is the trimmed one). */
  trim?: boolean;
  min?: number;
  max?: number;
  pattern?: RegExp;
}

/** A string within the rules. */
export function text({
  trim = false,
  min = 0,
  max = Number.POSITIVE_INFINITY,
  pattern,
}: TextRules = {}): Field<string> {
  return (raw) => {
    if (typeof raw !== 'string') return undefined;
    const value = trim ? raw.trim() : raw;
    if (value.length < min || value.length > max) return undefined;
    if (pattern && !pattern.test(value)) return undefined;
    return value;
  };
}

/** One of a list of strings. */
export function oneOf<const T extends readonly string[]>(values: T): Field<T[number]> {
  return (raw) => ((values as readonly unknown[]).includes(raw) ? (raw as T[number]) : undefined);
}

/**
 * A comma list of known values (`?status=running,queued`): unknown values are dropped and the rest kept
 * in the list's own order, so equal filters make equal query keys.
 */
export function commaSet(values: readonly string[]): Field<string> {
  return (raw) => {
    if (typeof raw !== 'string') return undefined;
    const picked = new Set(raw.split(',').map((value) => value.trim()));
    const kept = values.filter((value) => picked.has(value));
    return kept.length > 0 ? kept.join(',') : undefined;
  };
}

/** A boolean (the router reads `?mine=true` as JSON, so it arrives as one). */
export const flag: Field<boolean> = (raw) => (typeof raw === 'boolean' ? raw : undefined);

/** A string the check accepts. */
export function matching(check: (value: string) => boolean): Field<string> {
  return (raw) => (typeof raw === 'string' && check(raw) ? raw : undefined);
}

/** An array of up to `max` items, each of which must fit (one that does not drops the whole list). */
export function listOf<T>(item: Field<T>, max: number): Field<T[]> {
  return (raw) => {
    if (!Array.isArray(raw) || raw.length > max) return undefined;
    const items: T[] = [];
    for (const entry of raw) {
      const value = item(entry);
      if (value === undefined) return undefined;
      items.push(value);
    }
    return items;
  };
}

/** The first of the fields that keeps the value. */
export function either<A, B>(first: Field<A>, second: Field<B>): Field<A | B> {
  return (raw) => first(raw) ?? second(raw);
}

/** An absolute http(s) URL of at most 2048 characters, as the contract's HttpUrl. */
export const httpUrl: Field<string> = (raw) => {
  if (typeof raw !== 'string' || raw.length > 2048) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? raw : undefined;
  } catch {
    return undefined;
  }
};
