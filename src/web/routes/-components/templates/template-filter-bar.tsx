import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { cx } from '../../../components/cx.ts';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { useNavigatingSearch } from '../../../components/use-navigating-search.ts';
import { templateTagsQueryOptions } from '../../../queries/templates.ts';
import { TemplateSearch } from './template-search.ts';

const CHIP =
  'rounded-full px-3 py-1 text-xs font-medium ring-1 ring-inset ring-zinc-300 hover:bg-zinc-100 dark:ring-zinc-700 dark:hover:bg-zinc-800';
const CHIP_ON =
  'bg-zinc-900 text-white ring-zinc-900 hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-white';

/** Text search, the tag vocabulary as chips, and "my team's templates": each follows the URL at once. */
export function TemplateFilterBar() {
  const search = useNavigatingSearch(TemplateSearch);
  const navigate = useNavigate({ from: '/templates' });
  const set = (patch: Partial<TemplateSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);
  // The tags are a help, not the page: while they load or fail, the gallery still works.
  const tags = useQuery(templateTagsQueryOptions());

  return (
    <div className="mb-6 flex flex-col gap-3">
      <search aria-label="Filter templates">
        <form
          className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            set({ q: text.trim() || undefined });
          }}
        >
          <LabelledField label="Search">
            {(id) => (
              <input
                id={id}
                type="search"
                value={text}
                placeholder="Name, description or tag, then Enter"
                onChange={(event) => setText(event.target.value)}
                onBlur={() => {
                  if ((text.trim() || undefined) !== search.q) set({ q: text.trim() || undefined });
                }}
                className={FIELD_SELECT}
              />
            )}
          </LabelledField>
          <label className="flex h-10 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={search.mine ?? false}
              onChange={(event) => set({ mine: event.target.checked || undefined, tag: undefined })}
            />
            My team's templates (any state)
          </label>
        </form>
      </search>
      {tags.data && tags.data.length > 0 && !search.mine && (
        <ul aria-label="Tags" className="flex flex-wrap items-center gap-2">
          <li>
            <button
              type="button"
              aria-pressed={!search.tag}
              onClick={() => set({ tag: undefined })}
              className={cx(CHIP, !search.tag && CHIP_ON)}
            >
              All
            </button>
          </li>
          {tags.data.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                aria-pressed={search.tag === tag}
                onClick={() => set({ tag: search.tag === tag ? undefined : tag })}
                className={cx(CHIP, search.tag === tag && CHIP_ON)}
              >
                {tag}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
