import type { AnalyticsActivity, AnalyticsActivityQuery } from '../../../contract/analytics.ts';
import type { Db } from '../../db/pool.ts';
import { inVisibleFolder } from '../folders/folder-visibility.ts';
import { decodeCursor, encodeCursor, microsecondInstant, splitPage } from '../page-cursor.ts';
import { filterConditions, LEDGER_COLUMNS, Params, type Viewer } from './filters.ts';
import { filtersOf, inSnapshot, metaOf } from './meta.ts';
import { resolveQueryInstants } from './range.ts';

type Item = AnalyticsActivity['data'][number];

interface ActivityRow {
  id: string;
  at: string;
  created_at: Date;
  job_id: string | null;
  tool: Item['tool'];
  model: string | null;
  status: Item['status'];
  source: Item['source'];
  folder_id: string | null;
  api_key_id: string | null;
  person_id: string | null;
  delta_cents: number;
}

/** What an entry shows instead of a folder the viewer may not see (as creators show `other`). */
const HIDDEN = 'other';

/**
 * The counted ledger entries of the range (final charges, refunds, adjustments), newest first, each with
 * its job. Their spend and charges add up, over every page, to the summary's. An entry in a private
 * folder the viewer may not see keeps its amount but names neither the folder (`other`) nor the job;
 * in `self` scope, only the viewer's own entries name their job.
 */
export async function analyticsActivity(
  db: Db,
  viewer: Viewer,
  query: AnalyticsActivityQuery,
  now?: number,
): Promise<AnalyticsActivity> {
  const filters = filtersOf(query);
  // Ledger ids are bigints.
  const cursor = query.cursor ? decodeCursor(query.cursor, /^\d+$/) : null;
  return inSnapshot(db, query.timezone, async (tx, asOf) => {
    const range = resolveQueryInstants(query, now ?? asOf.getTime());
    const p = new Params();
    const where = [
      `l.team_id = ${p.add(viewer.teamId)}`,
      `l.kind IN ('settle', 'refund', 'adjustment')`,
      `l.created_at >= ${p.add(range.from)}`,
      `l.created_at < ${p.add(range.to)}`,
      ...filterConditions(p, LEDGER_COLUMNS, filters, viewer),
    ];
    if (cursor)
      where.push(
        `(l.created_at, l.id) < (${p.add(cursor.instant)}::timestamptz, ${p.add(cursor.id)}::bigint)`,
      );
    const seen = inVisibleFolder(viewer, 'l.folder_id', (v) => p.add(v));
    const { rows } = await tx.query<ActivityRow>(
      `SELECT l.id::text, ${microsecondInstant('l.created_at')} AS at,
              l.created_at, CASE WHEN ${seen} THEN l.job_id END AS job_id, l.tool, l.model,
              ${LEDGER_COLUMNS.status} AS status, ${LEDGER_COLUMNS.source} AS source,
              CASE WHEN ${seen} THEN l.folder_id::text ELSE ${p.add(HIDDEN)} END AS folder_id,
              l.api_key_id, l.person_id::text, l.delta_cents
         FROM credit_ledger l
        WHERE ${where.join(' AND ')}
        ORDER BY l.created_at DESC, l.id DESC
        LIMIT ${p.add(query.limit + 1)}`,
      p.values,
    );
    const { page, nextCursor: next } = splitPage(rows, query.limit, (last) => encodeCursor(last.at, last.id));
    const self = viewer.scope === 'self';
    const shownKey = (id: string | null) => (id && self && !viewer.apiKeyIds.includes(id) ? 'other' : id);
    const shownPerson = (id: string | null) => (id && self && id !== viewer.personId ? 'other' : id);
    return {
      data: page.map((row): Item => {
        const apiKeyId = shownKey(row.api_key_id);
        const memberId = shownPerson(row.person_id);
        const creatorId = row.api_key_id ? apiKeyId : memberId;
        return {
          job_id: creatorId === 'other' ? null : row.job_id,
          created_at: row.created_at.toISOString(),
          tool: row.tool,
          model: row.model,
          status: row.status,
          source: row.source,
          creator:
            creatorId === 'other'
              ? 'other'
              : row.api_key_id
                ? `api_key:${row.api_key_id}`
                : row.person_id
                  ? `member:${row.person_id}`
                  : null,
          folder_id: row.folder_id,
          api_key_id: apiKeyId,
          member_id: memberId,
          spend_cents: -Number(row.delta_cents),
          charges: row.delta_cents < 0 ? 1 : 0,
        };
      }),
      meta: { ...metaOf(range, filters, viewer, asOf), next_cursor: next },
    };
  });
}
