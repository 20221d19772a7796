import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { JOB_STATUSES, NONE, TOOL_KEYS } from '../../../../contract/values.ts';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { DateRangeFields } from '../../../components/date-range-fields.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { PHONE, useMediaQuery } from '../../../components/use-media-query.ts';
import { useNavigatingSearch } from '../../../components/use-navigating-search.ts';
import { jobErrorWords } from '../../../format/job-error.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { formatStatus } from '../../../format/words.ts';
import { apiKeysQueryOptions } from '../../../queries/api-keys.ts';
import { foldersQueryOptions } from '../../../queries/folders.ts';
import { type JobFeedFilters, JobFeedSearch, normalizeFilters } from '../../../queries/job-filters.ts';
import { pricingQueryOptions } from '../../../queries/pricing.ts';

interface JobFilterBarProps {
  catalog: readonly PriceCatalogEntry[];
  onChange: (patch: Partial<JobFeedFilters>) => void;
  onClear: () => void;
}

const list = (value: string | undefined) => (value ? value.split(',') : []);

/** How many filters are set: the count on the phone's "Filters" button. */
export function filterCount(filters: JobFeedFilters): number {
  return Object.keys(normalizeFilters(filters)).length;
}

/**
 * The feed's filter bar, writing the URL. It sits outside the feed (which starts over for each filter),
 * so the phone's unfolded filters stay open while one is changed.
 */
export function JobFeedFilterBar() {
  const navigate = useNavigate();
  const { data: pricing } = useSuspenseQuery(pricingQueryOptions());
  return (
    <JobFilterBar
      catalog={pricing.data}
      onChange={(patch) => void navigate({ to: '/jobs', search: (prev) => ({ ...prev, ...patch }) })}
      onClear={() => void navigate({ to: '/jobs', search: {} })}
    />
  );
}

/**
 * Filters of the feed. Every change goes to the URL, so a reload or a shared link keeps them; the
 * controls read the URL being navigated to, so they answer at once while the new feed loads. On a
 * phone they fold behind a "Filters" button that says how many are set.
 */
export function JobFilterBar({ catalog, onChange, onClear }: JobFilterBarProps) {
  const filters = normalizeFilters(useNavigatingSearch(JobFeedSearch));
  const phone = useMediaQuery(PHONE);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = filterCount(filters);
  return (
    <search aria-label="Filter jobs" className="mb-4">
      {phone && (
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
          className="mb-3"
        >
          Filters
          {count > 0 && (
            <span className="rounded-full bg-zinc-900 px-1.5 text-xs text-white tabular-nums dark:bg-zinc-100 dark:text-zinc-900">
              {count}
              <span className="sr-only"> set</span>
            </span>
          )}
        </Button>
      )}
      {(!phone || open) && (
        <div id={panelId} className="flex flex-col gap-4">
          <StatusChips filters={filters} onChange={onChange} />
          <div className="grid grid-cols-1 items-start gap-3 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-6">
            <LabelledField label="Tool">
              {(id) => (
                <select
                  id={id}
                  className={FIELD_SELECT}
                  value={list(filters.tool).length === 1 ? filters.tool : ''}
                  onChange={(e) => onChange({ tool: e.target.value || undefined, model: undefined })}
                >
                  <option value="">All tools</option>
                  {TOOL_KEYS.map((tool) => (
                    <option key={tool} value={tool}>
                      {toolLabel(tool)}
                    </option>
                  ))}
                </select>
              )}
            </LabelledField>
            <ModelFilter filters={filters} catalog={catalog} onChange={onChange} />
            <FolderFilter value={filters.folder} onChange={(folder) => onChange({ folder })} />
            <KeyFilter value={filters.key} onChange={(key) => onChange({ key })} />
            <DateRangeFields
              from={filters.from}
              to={filters.to}
              labels={{ from: 'Created from', to: 'Created to' }}
              onChange={onChange}
            />
          </div>
          {filters.error && (
            <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
              <span>
                Failed with: <strong>{jobErrorWords({ code: filters.error, message: '' }).title}</strong>
              </span>
              <Button
                variant="secondary"
                size="sm"
                aria-label="Remove the error filter"
                onClick={() => onChange({ error: undefined })}
              >
                Remove
              </Button>
            </p>
          )}
          {count > 0 && (
            <div>
              <Button variant="ghost" size="sm" onClick={onClear}>
                Clear filters
              </Button>
            </div>
          )}
        </div>
      )}
    </search>
  );
}

function StatusChips({
  filters,
  onChange,
}: {
  filters: JobFeedFilters;
  onChange: JobFilterBarProps['onChange'];
}) {
  const statuses = list(filters.status);
  const toggle = (status: string) => {
    const next = statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status];
    onChange({ status: next.length ? JOB_STATUSES.filter((s) => next.includes(s)).join(',') : undefined });
  };
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Status</legend>
      <span aria-hidden="true" className="mr-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Status
      </span>
      {JOB_STATUSES.map((status) => (
        <label
          key={status}
          className={cx(
            'relative inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-full px-3 text-sm ring-1 ring-inset transition-colors',
            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600',
            statuses.includes(status)
              ? 'bg-zinc-900 text-white ring-zinc-900 dark:bg-zinc-100 dark:text-zinc-900 dark:ring-zinc-100'
              : 'bg-white text-zinc-700 ring-zinc-300 hover:bg-zinc-50 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-700 dark:hover:bg-zinc-800',
          )}
        >
          <input
            type="checkbox"
            className="sr-only"
            checked={statuses.includes(status)}
            onChange={() => toggle(status)}
          />
          {formatStatus(status)}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The model, searchable: typing narrows the catalog's models (a native list of suggestions, as long as
 * the catalog is). A name that is no model is not applied; leaving the field puts the filter back.
 */
function ModelFilter({
  filters,
  catalog,
  onChange,
}: {
  filters: JobFeedFilters;
  catalog: readonly PriceCatalogEntry[];
  onChange: JobFilterBarProps['onChange'];
}) {
  const tools = list(filters.tool);
  const entries = catalog.filter((entry) => tools.length === 0 || tools.includes(entry.tool));
  const names = new Map(entries.map((entry) => [entry.model, entry.display_name]));
  const models = [...names.keys()];
  if (filters.model && !models.includes(filters.model)) models.unshift(filters.model);
  const listId = useId();
  const [text, setText] = useState(filters.model ?? '');
  useEffect(() => setText(filters.model ?? ''), [filters.model]);

  const apply = (value: string) => {
    const next = value.trim();
    if (next === (filters.model ?? '')) return;
    if (next === '') onChange({ model: undefined });
    else if (models.includes(next)) onChange({ model: next });
  };

  return (
    <LabelledField label="Model">
      {(id) => (
        <>
          <input
            id={id}
            type="search"
            list={listId}
            className={FIELD_SELECT}
            placeholder={`All ${models.length} models`}
            spellCheck={false}
            autoComplete="off"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              // Picking a suggestion (or clearing the field) applies at once.
              if (e.target.value === '' || models.includes(e.target.value)) apply(e.target.value);
            }}
            onBlur={() => setText(filters.model ?? '')}
            onKeyDown={(e) => {
              if (e.key === 'Enter') apply(text);
            }}
          />
          <datalist id={listId}>
            {models.map((model) => (
              <option key={model} value={model} label={names.get(model)} />
            ))}
          </datalist>
        </>
      )}
    </LabelledField>
  );
}

/** Folders by name (the team's, from the folders API); "No folder" is jobs filed nowhere. */
function FolderFilter({ value, onChange }: { value: string | undefined; onChange: (v?: string) => void }) {
  const folders = useQuery(foldersQueryOptions()).data ?? [];
  const known = !value || value === NONE || folders.some((f) => f.id === value);
  return (
    <LabelledField label="Folder">
      {(id) => (
        <select
          id={id}
          className={FIELD_SELECT}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        >
          <option value="">All folders</option>
          <option value={NONE}>No folder</option>
          {!known && <option value={value}>Folder {value}</option>}
          {folders.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folder.name}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

/** API keys by name (revoked ones too: their jobs stay); "No key" is jobs started in the console. */
function KeyFilter({ value, onChange }: { value: string | undefined; onChange: (v?: string) => void }) {
  const keys = useQuery(apiKeysQueryOptions(true)).data ?? [];
  const known = !value || value === NONE || keys.some((k) => k.id === value);
  return (
    <LabelledField label="API key">
      {(id) => (
        <select
          id={id}
          className={FIELD_SELECT}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        >
          <option value="">All keys</option>
          <option value={NONE}>No key (started in the console)</option>
          {!known && <option value={value}>Key {value}</option>}
          {keys.map((key) => (
            <option key={key.id} value={key.id}>
              {key.name}
              {key.revoked_at ? ' (revoked)' : ''}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}
