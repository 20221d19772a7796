import { AuditEntry } from '../../contract/audit-log.ts';
import { pageOf } from '../../contract/common.ts';
import type { Person } from './team-test-support.ts';

const AuditPage = pageOf(AuditEntry);

export type AuditFilters = { actor?: string; action?: string; target?: string; from?: string; to?: string };

/** A person's team's whole audit log (every page), newest first, each entry checked against the contract. */
export async function auditLogOf(owner: Person, query: AuditFilters = {}): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = AuditPage.parse(
      await owner.client.listAuditLog({ query: { ...query, limit: 100, ...(cursor ? { cursor } : {}) } }),
    );
    entries.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return entries;
}
