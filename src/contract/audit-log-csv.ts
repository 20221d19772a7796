import { AUDIT_ACTION_LABELS } from './audit-actions.ts';
import type { AuditEntry } from './audit-log.ts';
import { csvText } from './csv.ts';

/*
 * The audit log as CSV: the API's `format=csv` answer and the console's download write the same columns,
 * one row per entry, with the words for the action beside its name and the chain's hashes at the end.
 */
const HEADER = [
  'occurred_at',
  'action',
  'action_label',
  'actor_type',
  'actor_email',
  'actor_api_key_id',
  'actor_api_key_name',
  'target_type',
  'target_id',
  'target_label',
  'client_address',
  'user_agent',
  'details',
  'id',
  'seq',
  'prev_hash',
  'hash',
] as const;

export function auditLogCsv(entries: readonly AuditEntry[]): string {
  return csvText(
    HEADER,
    entries.map((e) => [
      e.occurred_at,
      e.action,
      AUDIT_ACTION_LABELS[e.action],
      e.actor.type,
      e.actor.person?.email ?? null,
      e.actor.api_key?.id ?? null,
      e.actor.api_key?.name ?? null,
      e.target?.type ?? null,
      e.target?.id ?? null,
      e.target?.label ?? null,
      e.client_address,
      e.user_agent,
      JSON.stringify(e.details),
      e.id,
      e.seq,
      e.prev_hash,
      e.hash,
    ]),
  );
}
