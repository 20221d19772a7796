import type { TemplateFilter } from '../../../queries/templates.ts';
import { flag, type SearchOf, searchParams, text } from '../../../search-params/fields.ts';

const templateFields = {
  tag: text({ pattern: /^[a-z0-9][a-z0-9-]{0,31}$/ }),
  q: text({ trim: true, min: 1, max: 200 }),
  mine: flag,
};
/** The /templates filters, all in the URL: a tag, text, and "my team's own". A bad value is dropped. */
export const TemplateSearch = searchParams(templateFields);
export type TemplateSearch = SearchOf<typeof templateFields>;

export const templateFilter = (search: TemplateSearch): TemplateFilter => ({
  tag: search.tag,
  q: search.q,
  mine: search.mine,
});
