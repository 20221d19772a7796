import { z } from 'zod';

/** The eight tool keys of the spec (section 1), in the order the catalog lists them. */
export const TOOL_KEYS = ['image', 'video', 'speech', 'music', 'transcription', 'ffmpeg', 'render', 'pipeline'] as const;
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
export function commaList<T extends z.ZodType<string>>(item: T) {
  return z
    .string()
    .max(4000)
    .transform((raw) =>
      raw
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0),
    )
    .pipe(z.array(item).max(50, { message: 'at most 50 values' }));
}

/** Cursor-paged list query (api-extensions: limit 1..100, default 50). */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(512).optional(),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}
