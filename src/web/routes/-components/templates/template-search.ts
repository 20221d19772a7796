import { z } from 'zod';
import type { TemplateFilter } from '../../../queries/templates.ts';

/** The /templates filters, all in the URL: a tag, text, and "my team's own". A bad value is dropped. */
export const TemplateSearch = z.object({
  tag: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/)
    .optional()
    .catch(undefined),
  q: z.string().trim().min(1).max(200).optional().catch(undefined),
  mine: z.boolean().optional().catch(undefined),
});
export type TemplateSearch = z.output<typeof TemplateSearch>;

export const templateFilter = (search: TemplateSearch): TemplateFilter => ({
  tag: search.tag,
  q: search.q,
  mine: search.mine,
});
