import { useEffect, useState } from 'react';
import { NONE, TOOL_KEYS } from '../../../../contract/common.ts';
import { JOB_STATUSES, KeyId } from '../../../../contract/jobs.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { statusLabel } from '../../../components/job-status-badge.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { toolLabel } from '../../../format/tool-label.ts';
import { hasFilters, type JobFeedFilters } from '../../../queries/job-filters.ts';

interface JobFilterBarProps {
  filters: JobFeedFilters;
  catalog: readonly PriceCatalogEntry[];
  onChange: (patch: Partial<JobFeedFilters>) => void;
  onClear: () => void;
}

const list = (value: string | undefined) => (value ? value.split(',') : []);

/** Filters of the feed. Every change goes to the URL, so a reload or a shared link keeps them. */
export function JobFilterBar({ filters, catalog, onChange, onClear }: JobFilterBarProps) {
  const statuses = list(filters.status);
  const tools = list(filters.tool);
  const models = catalog
    .filter((entry) => tools.length === 0 || tools.includes(entry.tool))
    .map((entry) => entry.model);
  if (filters.model && !models.includes(filters.model)) models.unshift(filters.model);

  const toggleStatus = (status: string) => {
    const next = statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status];
    onChange({ status: next.length ? JOB_STATUSES.filter((s) => next.includes(s)).join(',') : undefined });
  };

  return (
    <search aria-label="Filter jobs" className="mb-4 flex flex-col gap-4">
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
              onChange={() => toggleStatus(status)}
            />
            {statusLabel(status)}
          </label>
        ))}
      </fieldset>
      <div className="grid grid-cols-2 items-start gap-3 md:grid-cols-3 xl:grid-cols-6">
        <LabelledField label="Tool">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={tools.length === 1 ? tools[0] : ''}
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
        <LabelledField label="Model">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={filters.model ?? ''}
              onChange={(e) => onChange({ model: e.target.value || undefined })}
            >
              <option value="">All models</option>
              {models.map((model) => (
                <option key={model} value={model}>
                  {model}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <IdFilter
          label="Folder"
          value={filters.folder}
          placeholder="Folder id, or none"
          check={(value) => value === NONE || /^[0-9a-f-]{36}$/i.test(value)}
          error="Enter a folder id (a UUID) or none."
          onApply={(folder) => onChange({ folder: folder?.toLowerCase() })}
        />
        <IdFilter
          label="API key"
          value={filters.key}
          placeholder="key_…, or none"
          check={(value) => value === NONE || KeyId.safeParse(value).success}
          error="Enter an API key id (key_…) or none."
          onApply={(key) => onChange({ key })}
        />
        <LabelledField label="Created from">
          {(id) => (
            <input
              id={id}
              type="date"
              className={FIELD_SELECT}
              value={filters.from ?? ''}
              max={filters.to}
              onChange={(e) => onChange({ from: e.target.value || undefined })}
            />
          )}
        </LabelledField>
        <LabelledField label="Created to">
          {(id) => (
            <input
              id={id}
              type="date"
              className={FIELD_SELECT}
              value={filters.to ?? ''}
              min={filters.from}
              onChange={(e) => onChange({ to: e.target.value || undefined })}
            />
          )}
        </LabelledField>
      </div>
      {hasFilters(filters) && (
        <div>
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear filters
          </Button>
        </div>
      )}
    </search>
  );
}

interface IdFilterProps {
  label: string;
  value: string | undefined;
  placeholder: string;
  check: (value: string) => boolean;
  error: string;
  onApply: (value: string | undefined) => void;
}

/**
 * A free-text id filter, applied on Enter or when leaving the field. The server has no list of folders
 * or keys to pick from yet, so the id is typed (or pasted from a job's details).
 */
function IdFilter({ label, value, placeholder, check, error, onApply }: IdFilterProps) {
  const [text, setText] = useState(value ?? '');
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setText(value ?? '');
    setInvalid(false);
  }, [value]);

  const apply = () => {
    const next = text.trim();
    if (next === (value ?? '')) return;
    if (next && !check(next)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onApply(next || undefined);
  };

  return (
    <TextField
      label={label}
      value={text}
      placeholder={placeholder}
      spellCheck={false}
      autoComplete="off"
      error={invalid ? error : undefined}
      onChange={(e) => setText(e.target.value)}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply();
      }}
    />
  );
}
