import { useInfiniteQuery, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../../client/api-error.ts';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from '../../../../contract/audit-actions.ts';
import { auditLogCsv } from '../../../../contract/audit-log-csv.ts';
import { Button } from '../../../components/button.tsx';
import { DateRangeFields } from '../../../components/date-range-fields.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { downloadText } from '../../../format/download-text.ts';
import { type AuditLogFilters, allAuditEntries, auditLogQueryOptions } from '../../../queries/audit-log.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { teamMembersQueryOptions } from '../../../queries/team.ts';
import { AuditTable } from './audit-table.tsx';

/** The kinds of action, for "every key event" and the like (the part before the dot). */
const KIND_LABELS: Record<string, string> = {
  'auth.': 'Every sign-in event',
  'api_key.': 'Every key event',
  'member.': 'Every member event',
  'folder.': 'Every folder event',
  'template.': 'Every template event',
  'credits.': 'Every credits event',
  'budget.': 'Every budget event',
};

interface AuditLogPageProps {
  filters: AuditLogFilters;
  onFilters: (next: AuditLogFilters) => void;
}

/** Who did what to the team's keys, members, folders and credits, and from where; newest first. */
export function AuditLogPage({ filters, onFilters }: AuditLogPageProps) {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const manages = me.team.role === 'owner' || me.team.role === 'manager';
  const set = (change: Partial<AuditLogFilters>) => {
    const next = { ...filters, ...change };
    onFilters(Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as AuditLogFilters);
  };
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every sign-in, key, member, folder, template and credits event of this team: who, what, when and from where. Entries cannot be changed or removed."
        actions={manages ? <DownloadCsv filters={filters} /> : undefined}
      />
      {manages ? (
        <>
          <Filters filters={filters} set={set} />
          <Entries filters={filters} filtered={filtered} onClear={() => onFilters({})} />
        </>
      ) : (
        <EmptyState title="For owners and managers">
          Only the team's owners and managers read its audit log. Ask one of them if you need to know who
          changed something.
        </EmptyState>
      )}
    </>
  );
}

function Filters({ filters, set }: { filters: AuditLogFilters; set: (c: Partial<AuditLogFilters>) => void }) {
  const members = useQuery(teamMembersQueryOptions());
  return (
    <form
      aria-label="Filter the audit log"
      className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5"
      onSubmit={(e) => e.preventDefault()}
    >
      <LabelledField label="Action">
        {(id) => (
          <select
            id={id}
            className={FIELD_SELECT}
            value={filters.action ?? ''}
            onChange={(e) => set({ action: e.target.value || undefined })}
          >
            <option value="">Every action</option>
            {Object.entries(KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
            <optgroup label="One action">
              {AUDIT_ACTIONS.map((value) => (
                <option key={value} value={value}>
                  {AUDIT_ACTION_LABELS[value]} ({value})
                </option>
              ))}
            </optgroup>
          </select>
        )}
      </LabelledField>
      <LabelledField label="Who">
        {(id) => (
          <select
            id={id}
            className={FIELD_SELECT}
            value={filters.actor ?? ''}
            onChange={(e) => set({ actor: e.target.value || undefined })}
          >
            <option value="">Anyone</option>
            {filters.actor && !members.data?.data.some((m) => m.user_id === filters.actor) && (
              <option value={filters.actor}>{filters.actor}</option>
            )}
            {members.data?.data.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.display_name} ({m.email})
              </option>
            ))}
          </select>
        )}
      </LabelledField>
      <LabelledField label="Target id">
        {(id) => (
          <input
            id={id}
            className={FIELD_SELECT}
            placeholder="key_…, a person or folder id"
            defaultValue={filters.target ?? ''}
            key={filters.target ?? ''}
            onBlur={(e) => set({ target: e.target.value.trim() || undefined })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') set({ target: e.currentTarget.value.trim() || undefined });
            }}
          />
        )}
      </LabelledField>
      <DateRangeFields
        from={filters.from}
        to={filters.to}
        labels={{ from: 'From (UTC day)', to: 'To (UTC day, included)' }}
        onChange={set}
      />
    </form>
  );
}

function Entries({
  filters,
  filtered,
  onClear,
}: {
  filters: AuditLogFilters;
  filtered: boolean;
  onClear: () => void;
}) {
  const query = useInfiniteQuery(auditLogQueryOptions(filters));
  const entries = query.data?.pages.flatMap((page) => page.data) ?? [];
  if (query.isPending) return <LoadingNote className="py-16">Loading the audit log…</LoadingNote>;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 403) {
      return (
        <EmptyState title="For owners and managers">
          Only the team's owners and managers read its audit log.
        </EmptyState>
      );
    }
    return (
      <LoadFailed
        title="The audit log could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (entries.length === 0) {
    return filtered ? (
      <EmptyState
        title="No entries match these filters"
        action={
          <Button variant="secondary" onClick={onClear}>
            Show every entry
          </Button>
        }
      >
        Try another action, person or range of days.
      </EmptyState>
    ) : (
      <EmptyState title="No entries yet">
        Sign-ins, key changes, invitations and credits granted to this team appear here.
      </EmptyState>
    );
  }
  return (
    <>
      <AuditTable entries={entries} />
      <LoadMoreButton query={query} />
    </>
  );
}

/** Downloads every entry the filters match as CSV (the API's own columns). */
function DownloadCsv({ filters }: { filters: AuditLogFilters }) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const download = async () => {
    setState('busy');
    try {
      const entries = await allAuditEntries(filters);
      downloadText(`audit-log-${new Date().toISOString().slice(0, 10)}.csv`, auditLogCsv(entries));
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="flex items-center gap-3">
      {state === 'failed' && (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          The download failed. Try again.
        </span>
      )}
      <Button variant="secondary" onClick={() => void download()} disabled={state === 'busy'}>
        {state === 'busy' ? 'Preparing CSV…' : 'Download CSV'}
      </Button>
    </div>
  );
}
