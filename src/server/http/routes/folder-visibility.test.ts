import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, type Person, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { until } from '../../testing/until.ts';

/*
 * A private folder, as every route that reads it or its contents answers it, for each kind of caller:
 * its creator (a plain member), the team's owner and a manager see it; another plain member of the team
 * and a person outside the team holding one of its keys (shared) do not. To those two the folder, its
 * name, its jobs and files do not exist: 404 for each object, absent from every list and export, and
 * analytics count the spend in an unnamed group.
 */

type Viewer = 'creator' | 'owner' | 'manager' | 'member' | 'shared';
const SEERS: Viewer[] = ['creator', 'owner', 'manager'];
const VIEWERS: Viewer[] = [...SEERS, 'member', 'shared'];

let t: TestApp;
let owner: Person;
const who = {} as Record<Viewer, Person>;
let folder: { id: string; name: string; slug: string };
let jobId: string;
let fileId: string;

/** A raw answer of the app to `viewer` acting for the owner's team (as the console does, X-Team-Id). */
async function call(viewer: Viewer, path: string, method = 'GET') {
  const response = await t.request(path, {
    method,
    headers: {
      authorization: `Bearer ${who[viewer].token}`,
      'x-team-id': owner.teamId,
      'x-forwarded-for': '198.51.100.9',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** Whether an answer names the folder or its job in any way (id, slug, name, job id, prompt). */
const names = (text: string) =>
  [folder.id, folder.slug, folder.name, jobId, PROMPT].filter((secret) => text.includes(secret));
/** The same, for the answer to a request naming the object: its own id may be echoed in the 404. */
const tells = (text: string) => [folder.name, PROMPT].filter((secret) => text.includes(secret));
const PROMPT = 'the hidden prompt';

beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' });
  owner = await person(t);
  who.owner = owner;
  who.creator = await memberOf(t, owner, 'member');
  who.manager = await memberOf(t, owner, 'manager');
  who.member = await memberOf(t, owner, 'member');
  who.shared = await person(t);
  const key = await owner.client.createApiKey({ body: { name: 'shared', revealable: false } });
  await owner.client.shareApiKey({ params: { id: key.key.id }, body: { emails: [who.shared.email] } });

  const asTeam = { 'x-team-id': owner.teamId };
  const creator = who.creator.client;
  folder = (
    await creator.createFolder({ body: { name: 'Secret plans', visibility: 'private' }, headers: asTeam })
  ).workspace;
  const job = await creator.createImage({
    body: { model: 'local-sketch', prompt: PROMPT },
    headers: { ...asTeam, 'x-workspace-id': folder.id },
  });
  jobId = job.id;
  await until(async () => {
    const { status } = await creator.getJob({ params: { id: jobId }, headers: asTeam });
    return status === 'completed' || status === 'failed';
  }, 60_000);
  fileId = (
    await creator.uploadFile({
      body: { filename: 'plan.txt', data: Buffer.from('plan').toString('base64'), workspace_id: folder.id },
      headers: asTeam,
    })
  ).id;
  // Spend outside the folder too, so that the hidden viewers' analytics are not empty.
  await who.member.client.createImage({ body: { model: 'local-sketch', prompt: 'open' }, headers: asTeam });
}, 120_000);
afterAll(() => t.close());

/** Routes of one object: those who see the folder get it, everyone else 404 (never 403). */
const objectRoutes: Array<[string, () => string, string?, number?]> = [
  ['GET /v2/jobs/{id}', () => `/v2/jobs/${jobId}`],
  ['GET /v2/jobs/{id}/status', () => `/v2/jobs/${jobId}/status`],
  ['GET /v2/jobs/{id}/price', () => `/v2/jobs/${jobId}/price`],
  ['GET /v2/jobs/{id}/webhook-deliveries', () => `/v2/jobs/${jobId}/webhook-deliveries`],
  // A finished job cannot be cancelled or retried (409 to those who see it), but that says it exists.
  ['POST /v2/jobs/{id}/cancel', () => `/v2/jobs/${jobId}/cancel`, 'POST', 409],
  ['GET /v2/files/{id}', () => `/v2/files/${fileId}`],
  ['GET /v2/files/{id}/lineage', () => `/v2/files/${fileId}/lineage`],
  ['GET /v2/workspaces/{id}', () => `/v2/workspaces/${folder.id}`],
];

describe('a private folder, route by route and caller by caller', () => {
  for (const [route, path, method = 'GET', seen = 200] of objectRoutes) {
    for (const viewer of VIEWERS) {
      const sees = SEERS.includes(viewer);
      it(`${route}: ${viewer} ${sees ? 'gets it' : 'gets 404'}`, async () => {
        const answer = await call(viewer, path(), method);
        if (sees) expect(answer.status).toBe(seen);
        else {
          expect(answer.status).toBe(404);
          expect(answer.json()).toMatchObject({ error: { code: 'not_found' } });
          expect(tells(answer.text)).toEqual([]);
        }
      });
    }
  }

  /** Lists and exports: those who see the folder find it there; to the rest it is not named at all. */
  const listRoutes: Array<[string, () => string]> = [
    ['GET /v2/jobs', () => '/v2/jobs'],
    ['GET /v2/jobs?folder=', () => `/v2/jobs?folder=${folder.id}`],
    ['GET /v2/files', () => '/v2/files'],
    ['GET /v2/files?folder=', () => `/v2/files?folder=${folder.id}`],
    ['GET /v2/workspaces', () => '/v2/workspaces'],
    ['GET /v2/billing/ledger', () => '/v2/billing/ledger'],
    ['GET /v2/billing/ledger?folder=', () => `/v2/billing/ledger?folder=${folder.id}`],
    ['GET /v2/billing/ledger?job=', () => `/v2/billing/ledger?job=${jobId}`],
    ['GET /v2/analytics/breakdown?dimension=folder', () => '/v2/analytics/breakdown?dimension=folder'],
    ['GET /v2/analytics/activity', () => '/v2/analytics/activity'],
    ['GET /v2/analytics/activity?folder=', () => `/v2/analytics/activity?folder=${folder.id}`],
    [
      'GET /v2/analytics/breakdown?dimension=folder&format=csv',
      () => '/v2/analytics/breakdown?dimension=folder&format=csv',
    ],
    ['GET /v2/analytics/activity?format=csv', () => '/v2/analytics/activity?format=csv'],
  ];
  for (const [route, path] of listRoutes) {
    for (const viewer of VIEWERS) {
      const sees = SEERS.includes(viewer);
      const analytics = route.includes('/analytics/');
      it(`${route}: ${viewer} ${sees ? 'finds the folder' : analytics || viewer === 'member' ? 'finds no trace of it' : 'gets 404'}`, async () => {
        const answer = await call(viewer, path());
        if (viewer === 'shared' && !analytics) {
          // Outside the team, only analytics (and the key endpoints) answer at all.
          expect(answer.status).toBe(404);
        } else {
          expect(answer.status).toBe(200);
        }
        // `meta.filters` of analytics repeats the caller's own query: what they named, not what we tell.
        const told =
          analytics && route.includes('folder=') ? JSON.stringify(answer.json().data) : answer.text;
        if (sees) expect(names(told).length).toBeGreaterThan(0);
        else expect(names(told)).toEqual([]);
      });
    }
  }

  it('analytics keep the hidden spend, in one unnamed group, and a folder filter selects none of it', async () => {
    const summary = async (viewer: Viewer, query = '') =>
      (
        (await call(viewer, `/v2/analytics/summary?compare=none${query}`)).json().data as {
          spend_cents: number;
        }
      ).spend_cents;
    const total = await summary('owner');
    expect(total).toBeGreaterThan(0);
    expect(await summary('member')).toBe(total);
    const inFolder = await summary('owner', `&folder=${folder.id}`);
    expect(inFolder).toBeGreaterThan(0);
    expect(await summary('creator', `&folder=${folder.id}`)).toBe(inFolder);
    expect(await summary('member', `&folder=${folder.id}`)).toBe(0);

    const breakdown = (await call('member', '/v2/analytics/breakdown?dimension=folder')).json()
      .data as Array<{
      key: string | null;
      other: boolean;
      spend_cents: number;
    }>;
    expect(breakdown.reduce((sum, row) => sum + row.spend_cents, 0)).toBe(total);
    expect(breakdown.find((row) => row.other)?.spend_cents).toBe(inFolder);

    const activity = (await call('member', '/v2/analytics/activity')).json().data as Array<{
      folder_id: string | null;
      job_id: string | null;
      spend_cents: number;
    }>;
    expect(activity.reduce((sum, row) => sum + row.spend_cents, 0)).toBe(total);
    expect(activity.filter((row) => row.folder_id === 'other').map((row) => row.job_id)).toEqual([null]);
  });

  it("leaves the folder's jobs out of the lineage of a file the member sees", async () => {
    const asTeam = { 'x-team-id': owner.teamId };
    const input = await who.member.client.uploadFile({
      body: { filename: 'in.txt', data: Buffer.from('in').toString('base64') },
      headers: asTeam,
    });
    await t.db.query(`INSERT INTO file_lineage (file_id, job_id, role) VALUES ($1, $2, 'input')`, [
      input.id,
      jobId,
    ]);
    for (const viewer of ['creator', 'member'] as const) {
      const graph = await call(viewer, `/v2/files/${input.id}/lineage`);
      expect(graph.status).toBe(200);
      const ids = (graph.json().nodes as Array<{ id: string }>).map((n) => n.id);
      expect(ids.includes(jobId)).toBe(viewer === 'creator');
      expect(names(graph.text).length > 0).toBe(viewer === 'creator');
    }
  });

  it("shows a person outside the team none of the team's job ids in activity", async () => {
    const activity = (await call('shared', '/v2/analytics/activity')).json().data as Array<{
      job_id: string | null;
    }>;
    expect(activity.length).toBeGreaterThan(0);
    expect(activity.map((row) => row.job_id)).toEqual(activity.map(() => null));
  });
});
