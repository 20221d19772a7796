import type { z } from 'zod';
import type { LedgerEntry, LedgerListQuery } from '../../../contract/billing.ts';
import type { Queryable } from '../../db/pool.ts';
import { type Columns, filterConditions, LEDGER_COLUMNS, Params } from '../analytics/filters.ts';
import { type FolderViewer, inVisibleFolder } from '../folders/folder-visibility.ts';
import { decodeCursor, encodeCursor, microsecondInstant, splitPage } from '../page-cursor.ts';

/** Every row this server writes has a source (grants: `internal`); one without counts as `internal` too. */
const COLUMNS: Columns = { ...LEDGER_COLUMNS, source: "coalesce(l.source, 'internal')" };

interface LedgerRow {
  id: string;
  at: string;
  team_id: string;
  delta_cents: string;
  kind: LedgerEntry['kind'];
  balance_after_cents: string;
  job_id: string | null;
  tool: LedgerEntry['tool'];
  model: string | null;
  folder_id: string | null;
  api_key_id: string | null;
  person_id: string | null;
  source: LedgerEntry['source'];
  reason: string | null;
  created_at: Date;
}

/**
 * A page of a team's ledger, newest first: every change of its balance (holds and releases too), except
 * the entries of jobs filed in a private folder the viewer may not see (the folder rule: they are that
 * folder's contents). The balance after each entry is still the team's.
 */
export async function ledgerPage(
  db: Queryable,
  viewer: FolderViewer,
  query: z.output<typeof LedgerListQuery>,
): Promise<{ data: LedgerEntry[]; next_cursor: string | null }> {
  // Ledger ids are bigints.
  const cursor = query.cursor ? decodeCursor(query.cursor, /^\d+$/) : null;
  const p = new Params();
  const teamId = viewer.teamId;
  const where = [
    `l.team_id = ${p.add(teamId)}`,
    inVisibleFolder(viewer, 'l.folder_id', (v) => p.add(v)),
    ...filterConditions(
      p,
      COLUMNS,
      {
        capability: query.tool,
        model: query.model,
        folder: query.folder,
        api_key: query.api_key,
        member: query.member,
        source: query.source,
      },
      { ...viewer, scope: 'full', apiKeyIds: [] },
    ),
  ];
  if (query.kind) where.push(`l.kind = ANY(${p.add(query.kind)}::text[])`);
  if (query.job) where.push(`l.job_id = ${p.add(query.job)}`);
  if (query.created_from) where.push(`l.created_at >= ${p.add(query.created_from)}`);
  if (query.created_to) where.push(`l.created_at < ${p.add(query.created_to)}`);
  if (cursor) {
    where.push(`(l.created_at, l.id) < (${p.add(cursor.instant)}::timestamptz, ${p.add(cursor.id)}::bigint)`);
  }
  const { rows } = await db.query<LedgerRow>(
    `SELECT l.id::text, ${microsecondInstant('l.created_at')} AS at, l.team_id::text, l.delta_cents, l.kind,
            l.balance_after_cents, l.job_id, l.tool, l.model, l.folder_id::text, l.api_key_id,
            l.person_id::text, ${COLUMNS.source} AS source, l.reason, l.created_at
       FROM credit_ledger l
      WHERE ${where.join(' AND ')}
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT ${p.add(query.limit + 1)}`,
    p.values,
  );
  const { page, nextCursor } = splitPage(rows, query.limit, (last) => encodeCursor(last.at, last.id));
  return {
    data: page.map((row) => ({
      id: `led_${row.id}`,
      team_id: row.team_id,
      delta_cents: Number(row.delta_cents),
      kind: row.kind,
      balance_after_cents: Number(row.balance_after_cents),
      job_id: row.job_id,
      tool: row.tool,
      model: row.model,
      folder_id: row.folder_id,
      api_key_id: row.api_key_id,
      person_id: row.person_id,
      source: row.source,
      note: row.reason,
      created_at: row.created_at.toISOString(),
    })),
    next_cursor: nextCursor,
  };
}
