import { z } from 'zod';
import { LIST_FILTER_MAX_CHARS, LIST_FILTER_MAX_VALUES, NONE, TOOL_KEYS } from './values.ts';

export { LIST_FILTER_MAX_CHARS, LIST_FILTER_MAX_VALUES, NONE, TOOL_KEYS };
export const ToolKey = z.enum(TOOL_KEYS).meta({ id: 'ToolKey', description: 'A capability of the service.' });
export type ToolKey = z.infer<typeof ToolKey>;

/** Tag groups of the spec (section 1); every endpoint belongs to one. */
export const TAGS = [
  'Generation',
  'Tools',
  'Jobs',
  'Files',
  'Folders',
  'Lineage',
  'Presets',
  'Templates',
  'Pricing',
  'Billing',
  'Analytics',
  'Account',
] as const;
export type Tag = (typeof TAGS)[number];

/** ISO 8601 UTC instant, as every timestamp of the interface. */
export const Timestamp = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 instant (UTC).' });

/** Whole credits: 1 credit = 1 cent (spec section 1). */
export const Cents = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
export const SignedCents = z.int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** An email address as the spec limits it (254 characters). */
export const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be an email address' }))
  .transform((value) => value.toLowerCase());

export const Uuid = z.uuid();

/** Comma-separated list query parameter (analytics-style): up to 50 values, max 4000 characters. */
export function commaList<T extends z.ZodType<unknown, string>>(item: T) {
  return z
    .string()
    .max(LIST_FILTER_MAX_CHARS)
    .transform((raw) =>
      raw
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0),
    )
    .pipe(z.array(item).max(LIST_FILTER_MAX_VALUES, { message: `at most ${LIST_FILTER_MAX_VALUES} values` }));
}

/**
 * A comma list filter that may instead be the literal `none` (spec 4.10): the output is either the
 * parsed values or `'none'`, which selects rows where the dimension is empty. `none` stands alone; it
 * is not a value inside a list. Item issues keep their own messages (a union would hide them).
 */
export function commaListOrNone<T extends z.ZodType<unknown, string>>(item: T) {
  const list = commaList(item);
  return z
    .string()
    .max(LIST_FILTER_MAX_CHARS, { abort: true })
    .transform((raw, ctx): typeof NONE | z.output<T>[] => {
      if (raw.trim() === NONE) return NONE;
      const parsed = list.safeParse(raw);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues)
        ctx.issues.push({ ...issue, input: issue.input ?? raw } as z.core.$ZodRawIssue);
      return z.NEVER;
    })
    .meta({ description: `Comma-separated values (at most ${LIST_FILTER_MAX_VALUES}), or \`${NONE}\`.` });
}

/** A boolean query parameter: `true`/`false` in the URL (z.coerce.boolean would read "false" as true). */
export const QueryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

/** An absolute http(s) URL, as every input and callback URL of the interface. */
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

/** A model id, or a provider-pinned `<provider>:<model>` (spec 4.1). */
export const ModelId = z
  .string()
  .trim()
  .min(1, { abort: true })
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/, { message: 'must be a model id or <provider>:<model>' })
  .meta({ description: 'Model id, or provider-pinned `<provider>:<model>`.' });

/** Cursor-paged list query (api-extensions: limit 1..100, default 50). */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(512).optional(),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}
