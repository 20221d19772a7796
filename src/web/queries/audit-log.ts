import { infiniteQueryOptions } from '@tanstack/react-query';
import type { AuditEntry } from '../../contract/audit-log.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

/** What the Audit log page filters by (all in its URL): an actor id, an action or `kind.`, a target id, UTC days. */
export interface AuditLogFilters {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  /** First day shown, `YYYY-MM-DD` (UTC). */
  from?: string | undefined;
  /** Last day shown, `YYYY-MM-DD` (UTC), inclusive. */
  to?: string | undefined;
}

export const auditLogKeys = {
  list: (filters: AuditLogFilters) => teamScoped(['audit-log', filters] as const),
};

const PAGE_SIZE = 50;
/** The CSV download reads at most this many entries (pages of 100): a year of a busy team's events. */
export const CSV_MAX_ENTRIES = 10_000;

/** The day after a `YYYY-MM-DD`, as the API's exclusive `to` instant. */
function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** The API query for the filters (days become UTC instants; `to` is exclusive, so the day after). */
export function auditLogQuery(filters: AuditLogFilters) {
  return {
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.target ? { target: filters.target } : {}),
    ...(filters.from ? { from: `${filters.from}T00:00:00Z` } : {}),
    ...(filters.to ? { to: dayAfter(filters.to) } : {}),
  };
}

export function auditLogQueryOptions(filters: AuditLogFilters) {
  return infiniteQueryOptions({
    queryKey: auditLogKeys.list(filters),
    queryFn: ({ pageParam }) =>
      api().listAuditLog({
        query: { ...auditLogQuery(filters), limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    staleTime: 5_000,
    // A member is answered 403 every time: asking again will not change it.
    retry: false,
  });
}

/** Every entry the filters match (up to CSV_MAX_ENTRIES), newest first, for the CSV download. */
export async function allAuditEntries(filters: AuditLogFilters): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const page = await api().listAuditLog({
      query: { ...auditLogQuery(filters), limit: 100, ...(cursor ? { cursor } : {}) },
    });
    entries.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && entries.length < CSV_MAX_ENTRIES);
  return entries;
}
