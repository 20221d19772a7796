import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededFolderId, seedJobs } from '../../testing/seed-jobs.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

/*
 * GET /v2/jobs over 600 seeded jobs: every filter of the feed (one value, several, `none`, dates, and
 * pairs), paged to the end with cursors, answers exactly the rows a plain filter over all the team's
 * jobs picks, newest first. The query is split per value and served by migration 013's indexes; this
 * is what must not change.
 */

interface Row {
  id: string;
  status: string;
  tool: string;
  model: string;
  folder_id: string | null;
  api_key_id: string | null;
  error_code: string | null;
  created_at: Date;
  updated_at: Date;
}

let t: TestApp;
let key: string;
let teamId: string;
let rows: Row[];
beforeAll(async () => {
  // No workers: nothing may touch the seeded jobs while they are read.
  t = await createTestApp({}, { work: false });
  key = (await signUp(t)).api_key;
  teamId = (await t.clientFor(key).getMe()).team.id;
  await seedJobs(t.db, teamId, 600, 100);
  // Error codes on the failed jobs (some without a code: `unknown`), and one on a cancelled job.
  await t.db.query(
    `UPDATE jobs SET error = CASE abs(hashtext(id)) % 3
                               WHEN 0 THEN NULL
                               WHEN 1 THEN '{"code":"provider_timeout","message":"x"}'::jsonb
                               ELSE '{"code":"content_policy","message":"x"}'::jsonb END
      WHERE team_id = $1 AND status = 'failed'`,
    [teamId],
  );
  await t.db.query(
    `UPDATE jobs SET error = '{"code":"provider_timeout","message":"x"}'
      WHERE id = (SELECT id FROM jobs WHERE team_id = $1 AND status = 'cancelled' LIMIT 1)`,
    [teamId],
  );
  rows = (
    await t.db.query<Row>(
      `SELECT id, status, tool, model, folder_id, api_key_id, error->>'code' AS error_code, created_at, updated_at
         FROM jobs WHERE team_id = $1`,
      [teamId],
    )
  ).rows;
}, 60_000);
afterAll(() => t?.close());

type Query = Record<string, string>;

/** Every page of the list for `query`, 50 at a time, following next_cursor. */
async function listAll(query: Query): Promise<string[]> {
  const client = t.clientFor(key);
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const answer = await client.listJobs({ query: { ...query, limit: 50, cursor } });
    ids.push(...answer.data.map((job) => job.id));
    if (!answer.next_cursor) return ids;
    cursor = answer.next_cursor;
  }
  throw new Error('more than 50 pages');
}

/** The same filters over all rows in plain code, newest first. */
function reference(query: Query): string[] {
  const inList = (name: string, value: string | null) => {
    const list = query[name];
    if (list === undefined) return true;
    if (list === 'none') return value === null;
    return value !== null && list.split(',').includes(value);
  };
  const at = (name: string) => (query[name] ? Date.parse(query[name]) : null);
  const from = at('created_from');
  const to = at('created_to');
  const since = at('updated_since');
  return rows
    .filter(
      (r) =>
        inList('status', r.status) &&
        inList('tool', r.tool) &&
        inList('model', r.model) &&
        inList('folder', r.folder_id) &&
        inList('key', r.api_key_id) &&
        inList('error_code', r.error_code ?? (r.status === 'failed' ? 'unknown' : null)) &&
        (from === null || r.created_at.getTime() >= from) &&
        (to === null || r.created_at.getTime() < to) &&
        (since === null || r.updated_at.getTime() >= since),
    )
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);
}

/** An instant between seeded jobs (they are 30 s apart), `minutes` ago. */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000 - 15_000).toISOString();

describe('GET /v2/jobs with the list indexes (migration 013)', () => {
  it('applies migration 013: one index per list filter, in the order of the list', async () => {
    const { rows: indexes } = await t.db.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'jobs' AND indexname LIKE 'jobs_team_%_created_idx'",
    );
    expect(indexes.map((i) => i.indexname).sort()).toEqual([
      'jobs_team_folder_created_idx',
      'jobs_team_key_created_idx',
      'jobs_team_model_created_idx',
      'jobs_team_status_created_idx',
      'jobs_team_tool_created_idx',
    ]);
  });

  const cases: Array<[string, () => Query]> = [
    ['no filter', () => ({})],
    ['one status, none', () => ({ status: 'submitting' })],
    ['one status, few', () => ({ status: 'running' })],
    ['one status, most', () => ({ status: 'completed' })],
    ['statuses', () => ({ status: 'failed,cancelled,running' })],
    ['a status list with a repeated value', () => ({ status: 'failed,failed' })],
    ['one tool, few', () => ({ tool: 'render' })],
    ['tools', () => ({ tool: 'speech,music,transcription' })],
    ['one model, few', () => ({ model: 'rare-model' })],
    ['models', () => ({ model: 'model-1,model-2,rare-model' })],
    ['one folder, few', () => ({ folder: seededFolderId(teamId, 6) })],
    ['folders', () => ({ folder: `${seededFolderId(teamId, 0)},${seededFolderId(teamId, 6)}` })],
    [
      'a folder list and a status list',
      () => ({
        status: 'failed,completed',
        folder: `${seededFolderId(teamId, 0)},${seededFolderId(teamId, 6)}`,
      }),
    ],
    ['an empty folder', () => ({ folder: seededFolderId(teamId, 5) })],
    ['folder none', () => ({ folder: 'none' })],
    ['one key, few', () => ({ key: 'key_few' })],
    ['keys', () => ({ key: 'key_seed0,key_seed1' })],
    ['key none', () => ({ key: 'none' })],
    ['a created range', () => ({ created_from: minutesAgo(120), created_to: minutesAgo(60) })],
    ['updated since', () => ({ updated_since: minutesAgo(45) })],
    ['status and tool lists together', () => ({ status: 'failed,cancelled', tool: 'image,video' })],
    ['status, model and folder', () => ({ status: 'completed', model: 'model-0', folder: 'none' })],
    ['a tool list in a date range', () => ({ tool: 'music,render', created_from: minutesAgo(200) })],
    ['one error code', () => ({ error_code: 'provider_timeout' })],
    ['error codes with unknown', () => ({ error_code: 'content_policy,unknown' })],
    ['an error code no job has', () => ({ error_code: 'never_seen' })],
    ['an error code and a model', () => ({ error_code: 'provider_timeout', model: 'model-1,model-2' })],
    [
      'more values than are split',
      () => ({ model: 'model-1,model-2,model-3,model-4,model-5,model-6,model-7,model-8,model-9' }),
    ],
  ];
  it.each(cases)('%s: the same rows as a plain filter, newest first, across pages', async (_, query) => {
    const q = query();
    const expected = reference(q);
    expect(await listAll(q)).toEqual(expected);
  });

  it('seeds what the cases need: every case that should match matches something', () => {
    expect(reference({ status: 'running' })).toHaveLength(3);
    expect(reference({ tool: 'render' }).length).toBeGreaterThan(0);
    expect(reference({ folder: seededFolderId(teamId, 6) }).length).toBeGreaterThan(0);
    expect(reference({ status: 'completed' }).length).toBeGreaterThan(50);
    expect(reference({ error_code: 'provider_timeout' }).length).toBeGreaterThan(1);
    expect(reference({ error_code: 'unknown' }).length).toBeGreaterThan(0);
    expect(reference({ error_code: 'content_policy' }).length).toBeGreaterThan(0);
  });
});

describe('GET /v2/jobs?error_code=', () => {
  it('refuses what is not an error code', async () => {
    const answer = await t.request('/v2/jobs?error_code=DROP%20TABLE', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(answer.status).toBe(422);
  });
});
