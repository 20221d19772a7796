import { useEffect, useState } from 'react';
import { FILE_ORIGINS } from '../../../../contract/values.ts';
import { cx } from '../../../components/cx.ts';
import { DateRangeFields } from '../../../components/date-range-fields.tsx';
import { LabelledField } from '../../../components/labelled-field.tsx';
import { FILE_KINDS, type FilesSearch } from '../../../queries/file-filters.ts';
import { inputClasses, segmentClasses } from '../../../schema-form/fields/input-classes.ts';
import { ORIGIN_LABELS } from './file-kind.ts';

const SELECT = inputClasses(false, 'h-9');
const KIND_LABELS = { image: 'Images', video: 'Videos', audio: 'Audio' } as const;
/** The URL (and the request) follow the search box once typing pauses. */
const SEARCH_DELAY_MS = 300;

/**
 * Search (name, a generated file's prompt, its model), type, origin and the days it was made, and the
 * grid/list switch: all of them live in the URL.
 */
export function FileFilterBar({
  search,
  onChange,
}: {
  search: FilesSearch;
  onChange: (patch: Partial<FilesSearch>) => void;
}) {
  const [text, setText] = useState(search.q ?? '');

  // Another link (back, a folder) may change q: the box follows it.
  useEffect(
    () => setText((current) => (current.trim() === (search.q ?? '') ? current : (search.q ?? ''))),
    [search.q],
  );
  useEffect(() => {
    const value = text.trim() || undefined;
    if (value === (search.q?.trim() || undefined)) return;
    const timer = setTimeout(() => onChange({ q: value }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, search.q, onChange]);

  const view = search.view ?? 'grid';
  return (
    <div className="flex flex-wrap items-end gap-3">
      <LabelledField label="Search name, prompt or model" compact className="min-w-48 flex-1">
        {(id) => (
          <input
            id={id}
            type="search"
            value={text}
            maxLength={200}
            placeholder="e.g. fox dusk, flux"
            onChange={(event) => setText(event.target.value)}
            className={SELECT}
          />
        )}
      </LabelledField>
      <LabelledField label="Type" compact>
        {(id) => (
          <select
            id={id}
            className={SELECT}
            value={search.type ?? ''}
            onChange={(e) => onChange({ type: (e.target.value || undefined) as FilesSearch['type'] })}
          >
            <option value="">All types</option>
            {FILE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <LabelledField label="Origin" compact>
        {(id) => (
          <select
            id={id}
            className={SELECT}
            value={search.origin ?? ''}
            onChange={(e) => onChange({ origin: (e.target.value || undefined) as FilesSearch['origin'] })}
          >
            <option value="">Any origin</option>
            {FILE_ORIGINS.map((origin) => (
              <option key={origin} value={origin}>
                {ORIGIN_LABELS[origin]}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <DateRangeFields
        from={search.from}
        to={search.to}
        labels={{ from: 'Made from', to: 'Made until' }}
        onChange={onChange}
        inputClassName={SELECT}
        compact
      />
      <fieldset className="flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
        <legend className="sr-only">View</legend>
        {(['grid', 'list'] as const).map((option) => (
          <label key={option} className={cx(segmentClasses(view === option))}>
            <input
              type="radio"
              name="file-view"
              value={option}
              className="sr-only"
              checked={view === option}
              onChange={() => onChange({ view: option === 'grid' ? undefined : option })}
            />
            {option === 'grid' ? 'Grid' : 'List'}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
