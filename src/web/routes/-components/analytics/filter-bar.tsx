import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ANALYTICS_JOB_STATUSES, ANALYTICS_SOURCES, TOOL_KEYS } from '../../../../contract/values.ts';
import { Button } from '../../../components/button.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { formatCredits } from '../../../format/credits.ts';
import {
  type AnalyticsQuery,
  analyticsBreakdownQueryOptions,
  type Comparison,
  LONG_BREAKDOWN_ROWS,
} from '../../../queries/analytics.ts';
import { FILTER_NAMES, type FilterName, type Filters, filterValues } from './analytics-search.ts';
import { DIMENSION_LABELS, valueLabel } from './labels.ts';

/** Values with a fixed vocabulary are offered from the contract; ids from a breakdown of the range. */
const FIXED: Partial<Record<FilterName, readonly string[]>> = {
  capability: TOOL_KEYS,
  source: ANALYTICS_SOURCES,
  status: ANALYTICS_JOB_STATUSES,
};

/** Folders, keys, people and creators may be absent from a run: `none` selects those. */
const HAS_NONE: ReadonlySet<FilterName> = new Set(['folder', 'api_key', 'member', 'creator']);

interface FilterBarProps {
  query: AnalyticsQuery;
  /** The page's comparison: the choices are the page's long breakdowns, shared through the cache. */
  comparison: Comparison | null;
  filters: Filters;
  onToggle: (name: FilterName, value: string) => void;
  onClear: () => void;
}

/** The values of a dimension in the range, not narrowed by that dimension's own filter (else only the chosen would show). */
function valuesQueryOptions(query: AnalyticsQuery, dimension: FilterName, comparison: Comparison | null) {
  const { [dimension]: _own, ...others } = query;
  return analyticsBreakdownQueryOptions(others as AnalyticsQuery, dimension, LONG_BREAKDOWN_ROWS, comparison);
}

/** Labels the server gives the ids in force (people, keys, folders), so chips read "Ada", not a UUID. */
function useKnownLabels(
  query: AnalyticsQuery,
  comparison: Comparison | null,
  filters: Filters,
): Map<string, string> {
  const named = FILTER_NAMES.filter(
    (name) => !FIXED[name] && filterValues(filters, name).some((v) => v !== 'none'),
  );
  return useQueries({
    queries: named.map((name) => valuesQueryOptions(query, name, comparison)),
    combine: (results) => {
      const labels = new Map<string, string>();
      for (const result of results) {
        for (const row of result.data?.data ?? []) if (row.key && !row.other) labels.set(row.key, row.label);
      }
      return labels;
    },
  });
}

/** The filters in force as removable chips, and a picker that adds one value of any dimension. */
export function FilterBar({ query, comparison, filters, onToggle, onClear }: FilterBarProps) {
  const known = useKnownLabels(query, comparison, filters);
  const chips = FILTER_NAMES.flatMap((name) => filterValues(filters, name).map((value) => ({ name, value })));
  return (
    <search aria-label="Filter analytics" className="flex flex-col gap-3">
      <AddFilter query={query} comparison={comparison} filters={filters} onAdd={onToggle} />
      {chips.length > 0 && (
        <ul aria-label="Filters in force" className="flex flex-wrap items-center gap-2">
          {chips.map(({ name, value }) => {
            const text = `${DIMENSION_LABELS[name]}: ${valueLabel(name, value, known)}`;
            return (
              <li
                key={`${name}:${value}`}
                className="inline-flex h-8 items-center gap-1 rounded-full bg-zinc-900 pr-1 pl-3 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900"
              >
                {text}
                <button
                  type="button"
                  aria-label={`Remove filter ${text}`}
                  className="grid size-6 place-items-center rounded-full hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 dark:hover:bg-black/10"
                  onClick={() => onToggle(name, value)}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
          <li>
            <Button variant="ghost" size="sm" onClick={onClear}>
              Clear filters
            </Button>
          </li>
        </ul>
      )}
    </search>
  );
}

interface AddFilterProps {
  query: AnalyticsQuery;
  comparison: Comparison | null;
  filters: Filters;
  onAdd: (name: FilterName, value: string) => void;
}

function AddFilter({ query, comparison, filters, onAdd }: AddFilterProps) {
  const [dimension, setDimension] = useState<FilterName>('capability');
  const [value, setValue] = useState('');
  const fixed = FIXED[dimension];
  const options = useQuery({ ...valuesQueryOptions(query, dimension, comparison), enabled: !fixed });
  const chosen = filterValues(filters, dimension);
  const choices: Array<{ value: string; label: string }> = fixed
    ? fixed.map((v) => ({ value: v, label: valueLabel(dimension, v) }))
    : (options.data?.data ?? [])
        .filter((row) => !row.other && row.key !== null)
        .map((row) => ({
          value: row.key as string,
          label: `${row.label} (${formatCredits(row.spend_cents)})`,
        }));
  if (HAS_NONE.has(dimension)) choices.push({ value: 'none', label: valueLabel(dimension, 'none') });
  const open = choices.filter((choice) => !chosen.includes(choice.value));

  return (
    <form
      className="flex flex-wrap items-end gap-3"
      aria-label="Add a filter"
      onSubmit={(e) => {
        e.preventDefault();
        if (!value) return;
        onAdd(dimension, value);
        setValue('');
      }}
    >
      <LabelledField label="Filter by" className="w-40">
        {(id) => (
          <select
            id={id}
            className={FIELD_SELECT}
            value={dimension}
            onChange={(e) => {
              setDimension(e.target.value as FilterName);
              setValue('');
            }}
          >
            {FILTER_NAMES.map((name) => (
              <option key={name} value={name}>
                {DIMENSION_LABELS[name]}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <LabelledField label="Value" className="w-72">
        {(id) => (
          <select
            id={id}
            className={FIELD_SELECT}
            value={value}
            disabled={!fixed && options.isPending}
            onChange={(e) => setValue(e.target.value)}
          >
            <option value="">
              {!fixed && options.isPending
                ? 'Loading values…'
                : !fixed && options.isError
                  ? 'Could not load values'
                  : open.length === 0
                    ? 'No values in this range'
                    : 'Choose a value'}
            </option>
            {open.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <Button type="submit" variant="secondary" disabled={!value}>
        Add filter
      </Button>
    </form>
  );
}
