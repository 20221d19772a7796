import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLedgerRows } from '../../domain/analytics/analytics-test-support.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let key: string;
let teamId: string;

beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '500' }, { work: false });
  key = (await signUp(t)).api_key;
  teamId = (await t.clientFor(key).getMe()).team.id;
});
afterAll(() => t.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await t.request(path, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  return { status: response.status, body, headers: response.headers };
}

const summary = (query: string) => get(`/v2/analytics/summary?${query}`);

const settle = (at: string, cents: number, extra: Record<string, unknown> = {}) => ({
  at,
  kind: 'settle' as const,
  delta: -cents,
  tool: 'image',
  model: 'local-sketch',
  source: 'api' as const,
  jobId: `job_${at.replace(/\W/g, '')}${cents}`,
  jobStatus: 'completed',
  ...extra,
});

describe('GET /v2/analytics/summary: the range', () => {
  beforeAll(async () => {
    await insertLedgerRows(t.db, teamId, [
      // 2025-01-15 in New York is 05:00Z to 05:00Z the next day.
      settle('2025-01-15T04:59:59.999Z', 1),
      settle('2025-01-15T05:00:00Z', 10),
      settle('2025-01-15T14:30:00Z', 100),
      settle('2025-01-16T04:59:59.999999Z', 1000),
      settle('2025-01-16T05:00:00Z', 10000),
    ]);
  });

  it('reads a date as local midnight in the time zone, and excludes the end', async () => {
    const { status, body } = await summary(
      'from=2025-01-15&to=2025-01-16&timezone=America/New_York&compare=none',
    );
    expect(status).toBe(200);
    expect(body.meta.from).toBe('2025-01-15T05:00:00.000Z');
    expect(body.meta.to).toBe('2025-01-16T05:00:00.000Z');
    expect(body.meta.timezone).toBe('America/New_York');
    expect(body.data.spend_cents).toBe(1110);
    expect(body.data.charges).toBe(3);
    expect(body.data.jobs).toBe(3);
  });

  it('reads a local date-time in the time zone', async () => {
    const { body } = await summary(
      'from=2025-01-15T09:30&to=2025-01-15T23:59:59.999&timezone=America/New_York',
    );
    expect(body.meta.from).toBe('2025-01-15T14:30:00.000Z');
    expect(body.meta.to).toBe('2025-01-16T04:59:59.999Z');
    // 14:30Z is in (from is inclusive); 04:59:59.999999Z is not (to is exclusive, to the microsecond).
    expect(body.data.spend_cents).toBe(100);
  });

  it('takes an instant with an offset as it is, whatever the time zone', async () => {
    const { body } = await summary(
      `from=${encodeURIComponent('2025-01-15T06:00:00+01:00')}&to=2025-01-15T05:00:00.001Z&timezone=Asia/Tokyo`,
    );
    expect(body.meta.from).toBe('2025-01-15T05:00:00.000Z');
    expect(body.meta.to).toBe('2025-01-15T05:00:00.001Z');
    expect(body.data.spend_cents).toBe(10);
  });

  it('fills the defaults: to now, from 30 days before, UTC, the previous period and the balance', async () => {
    const before = Date.now();
    const { status, body } = await summary('');
    expect(status).toBe(200);
    const to = Date.parse(body.meta.to);
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(to).toBeLessThanOrEqual(Date.now());
    expect(body.meta.to).toBe(body.meta.data_as_of);
    expect(to - Date.parse(body.meta.from)).toBe(30 * 86_400_000);
    expect(body.meta.timezone).toBe('UTC');
    expect(body.meta.compare).toEqual({
      mode: 'previous_period',
      from: expect.any(String),
      to: body.meta.from,
    });
    expect(Date.parse(body.meta.from) - Date.parse(body.meta.compare.from)).toBe(30 * 86_400_000);
    expect(body.data.previous).not.toBeNull();
    expect(body.data.change).not.toBeNull();
    expect(body.data.balance).toEqual({ balance_cents: 500, held_cents: 0, as_of: body.meta.data_as_of });
    expect(body.meta).toMatchObject({
      definition_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      money_unit: 'cents',
      time_basis: 'ledger_posted_at',
      attribution_scope: 'full',
      filters: {},
    });
  });

  it('compares with explicit bounds (compare is then ignored), or not at all', async () => {
    const { body } = await summary(
      'from=2025-01-16&to=2025-01-17&compare_from=2025-01-15&compare_to=2025-01-16&compare=none&include_balance=false',
    );
    expect(body.meta.compare).toEqual({
      mode: 'custom',
      from: '2025-01-15T00:00:00.000Z',
      to: '2025-01-16T00:00:00.000Z',
    });
    expect(body.data.spend_cents).toBe(11000);
    expect(body.data.previous.spend_cents).toBe(111);
    expect(body.data.change.spend_cents).toEqual({ delta: 10889, ratio: 10889 / 111 });
    expect(body.data.change.runs).toEqual({ delta: 0, ratio: null });
    expect(body.data.balance).toBeNull();
    const none = await summary('from=2025-01-16&to=2025-01-17&compare=none');
    expect(none.body.data.previous).toBeNull();
    expect(none.body.data.change).toBeNull();
    expect(none.body.meta.compare).toEqual({ mode: 'none', from: null, to: null });
  });

  it('compares with the previous period of the same local length by default', async () => {
    const { body } = await summary('from=2025-01-16&to=2025-01-17');
    expect(body.meta.compare.from).toBe('2025-01-15T00:00:00.000Z');
    expect(body.data.previous.spend_cents).toBe(111);
  });
});

describe('GET /v2/analytics/summary: limits', () => {
  const expect422 = async (query: string, field: string) => {
    const { status, body } = await summary(query);
    expect(status, query).toBe(422);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    return body;
  };

  it('takes 366 days and refuses more, also when a default fills the end', async () => {
    expect((await summary('from=2024-01-01&to=2025-01-01')).status).toBe(200);
    await expect422('from=2024-01-01&to=2025-01-02', 'query.to');
    await expect422('from=2000-01-01', 'query.from');
    await expect422('from=2025-01-02&to=2025-01-01', 'query.to');
  });

  it('takes bounds of 40 characters and refuses 41', async () => {
    const instant = (length: number) => `2025-01-15T00:00:00.${'1'.repeat(length - 21)}Z`;
    expect((await summary(`from=${instant(40)}&to=2025-01-16`)).status).toBe(200);
    await expect422(`from=${instant(41)}&to=2025-01-16`, 'query.from');
  });

  it('names an unknown time zone, and takes 64 characters but not 65', async () => {
    const body = await expect422('timezone=Mars/Olympus_Mons', 'query.timezone');
    expect(body.error.message).toContain('Mars/Olympus_Mons');
    await expect422(`timezone=Europe/${'x'.repeat(57)}`, 'query.timezone');
    const long = await summary(`timezone=Europe/${'x'.repeat(58)}`);
    expect(long.body.error.details.fields[0].code).toBe('too_big');
  });

  it('takes 50 filter values and 4000 characters, not 51 or 4001', async () => {
    const models = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`).join(',');
    expect((await summary(`model=${models(50)}`)).status).toBe(200);
    await expect422(`model=${models(51)}`, 'query.model');
    const padded = (n: number) => `local-sketch${','.repeat(n - 'local-sketch'.length)}`;
    expect((await summary(`model=${padded(4000)}`)).status).toBe(200);
    await expect422(`model=${padded(4001)}`, 'query.model');
  });

  it('refuses one explicit comparison bound without the other', async () => {
    await expect422('compare_from=2025-01-01', 'query.compare_to');
  });
});

describe('GET /v2/analytics/summary: filters', () => {
  beforeAll(async () => {
    await insertLedgerRows(t.db, teamId, [
      settle('2025-02-01T10:00:00Z', 7, {
        folderId: null,
        apiKeyId: 'key_a',
        tool: 'video',
        model: 'm-video',
      }),
      settle('2025-02-01T11:00:00Z', 20, {
        folderId: '3f1c9a52-8a53-4b4e-9d56-0f5b0b3c2a11',
        apiKeyId: null,
        source: 'app',
      }),
      { at: '2025-02-01T12:00:00Z', kind: 'adjustment', delta: -3 },
    ]);
  });
  const range = 'from=2025-02-01&to=2025-02-02&compare=none';

  it('selects the empty dimension with none', async () => {
    expect((await summary(`${range}&folder=none`)).body.data.spend_cents).toBe(10);
    expect((await summary(`${range}&api_key=none`)).body.data.spend_cents).toBe(23);
    expect((await summary(`${range}&creator=none`)).body.data.spend_cents).toBe(23);
    const tools = await summary(`${range}&capability=none`);
    expect(tools.body.data).toMatchObject({
      spend_cents: 3,
      unattributed_spend_cents: 3,
      charges: 1,
      jobs: 0,
    });
    expect(tools.body.meta.filters).toEqual({ capability: 'none' });
  });

  it('combines lists', async () => {
    const { body } = await summary(`${range}&capability=video,image&source=api,mcp`);
    expect(body.data.spend_cents).toBe(7);
    expect(body.meta.filters).toEqual({ capability: ['video', 'image'], source: ['api', 'mcp'] });
    expect((await summary(`${range}&source=unknown`)).body.data.spend_cents).toBe(3);
    expect((await summary(`${range}&status=unknown`)).body.data.spend_cents).toBe(3);
    expect((await summary(`${range}&creator=api_key:key_a`)).body.data.spend_cents).toBe(7);
  });
});

describe('GET /v2/analytics/timeseries?group_by: a stacked chart in one request', () => {
  beforeAll(async () => {
    await insertLedgerRows(t.db, teamId, [
      settle('2025-03-01T10:00:00Z', 50, { model: 'm-big', apiKeyId: 'key_s' }),
      settle('2025-03-02T10:00:00Z', 30, { model: 'm-big', apiKeyId: 'key_s' }),
      settle('2025-03-01T11:00:00Z', 20, { model: 'm-mid', tool: 'video' }),
      settle('2025-03-02T11:00:00Z', 5, { model: 'm-small', tool: 'video' }),
      settle('2025-03-03T11:00:00Z', 4, { model: 'm-tiny' }),
      { at: '2025-03-02T12:00:00Z', kind: 'adjustment', delta: -3 },
    ]);
  });
  const range = 'from=2025-03-01&to=2025-03-04&compare=none&bucket=day';
  const spendOf = (groups: Array<{ spend_cents: number }>) => groups.map((g) => g.spend_cents);

  it('splits each bucket into the top values and other, which add up to the bucket', async () => {
    const { status, body } = await get(`/v2/analytics/timeseries?${range}&group_by=model&limit=2`);
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({ group_by: 'model' });
    expect(body.meta.groups).toEqual([
      { key: 'm-big', label: 'm-big', other: false },
      { key: 'm-mid', label: 'm-mid', other: false },
      { key: null, label: 'Other', other: true },
    ]);
    expect(body.data.map((b: { groups: Array<{ spend_cents: number }> }) => spendOf(b.groups))).toEqual([
      [50, 20, 0],
      [30, 0, 8],
      [0, 0, 4],
    ]);
    for (const bucket of body.data) {
      const sum = spendOf(bucket.groups).reduce((a: number, b: number) => a + b, 0);
      expect(sum).toBe(bucket.spend_cents);
      expect(bucket.groups.map((g: { key: string | null }) => g.key)).toEqual(['m-big', 'm-mid', null]);
    }
  });

  it('has a group for runs without the value (none), and no other group when nothing is left', async () => {
    const { body } = await get(`/v2/analytics/timeseries?${range}&group_by=capability`);
    expect(body.meta.groups).toEqual([
      { key: 'image', label: 'image', other: false },
      { key: 'video', label: 'video', other: false },
      { key: null, label: expect.any(String), other: false },
    ]);
    expect(body.data[1].groups.map((g: { spend_cents: number }) => g.spend_cents)).toEqual([30, 5, 3]);
  });

  it('groups by creator, a value with a kind', async () => {
    const { body } = await get(`/v2/analytics/timeseries?${range}&group_by=creator&limit=1`);
    expect(body.meta.groups[0]).toMatchObject({ key: 'api_key:key_s', other: false });
    expect(body.data[0].groups.map((g: { spend_cents: number }) => g.spend_cents)).toEqual([50, 20]);
  });

  it('answers no groups without group_by, and refuses an unknown dimension or limit 21', async () => {
    const { body } = await get(`/v2/analytics/timeseries?${range}`);
    expect(body.meta).toMatchObject({ group_by: null, groups: [] });
    expect(body.data[0].groups).toBeUndefined();
    expect((await get(`/v2/analytics/timeseries?${range}&group_by=colour`)).status).toBe(422);
    expect((await get(`/v2/analytics/timeseries?${range}&group_by=model&limit=21`)).status).toBe(422);
  });
});

describe('CSV', () => {
  it('answers text/csv for format=csv or Accept: text/csv', async () => {
    const byFormat = await get('/v2/analytics/summary?from=2025-01-16&to=2025-01-17&format=csv');
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(byFormat.body).toBe(
      'period,from,to,spend_cents,charges,jobs,runs,unsuccessful_spend_cents,unattributed_spend_cents\r\n' +
        'current,2025-01-16T00:00:00.000Z,2025-01-17T00:00:00.000Z,11000,2,2,0,0,0\r\n' +
        'previous,2025-01-15T00:00:00.000Z,2025-01-16T00:00:00.000Z,111,3,3,0,0,0\r\n',
    );
    const byAccept = await get('/v2/analytics/breakdown?from=2025-02-01&to=2025-02-02&dimension=capability', {
      accept: 'text/csv',
    });
    expect(byAccept.body.split('\r\n')[0]).toBe(
      'capability,label,other,spend_cents,charges,jobs,runs,unsuccessful_spend_cents,unattributed_spend_cents,share',
    );
    const json = await get('/v2/analytics/timeseries?from=2025-02-01&to=2025-02-02&format=json', {
      accept: 'text/csv',
    });
    expect(json.body.data).toHaveLength(1);
  });
});

describe('attribution scope through a shared key', () => {
  it('answers a non-member with a key of the team shared with them in scope self', async () => {
    const { person } = await import('../../testing/team-test-support.ts');
    const owner = await person(t);
    const guest = await person(t);
    const created = await owner.client.createApiKey({ body: { name: 'shared with a guest' } });
    const keyId = created.key.id;
    await owner.client.shareApiKey({ params: { id: keyId }, body: { emails: [guest.email] } });
    await insertLedgerRows(t.db, owner.teamId, [
      settle('2025-03-01T10:00:00Z', 5, { apiKeyId: keyId, personId: owner.id }),
      settle('2025-03-01T11:00:00Z', 9, { apiKeyId: null, personId: owner.id }),
    ]);
    const response = await t.request(
      '/v2/analytics/breakdown?from=2025-03-01&to=2025-03-02&dimension=creator',
      { headers: { authorization: `Bearer ${guest.token}`, 'x-team-id': owner.teamId } },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.meta.attribution_scope).toBe('self');
    expect(
      body.data.map((r: { key: string | null; other: boolean; spend_cents: number }) => [
        r.key,
        r.other,
        r.spend_cents,
      ]),
    ).toEqual([
      [`api_key:${keyId}`, false, 5],
      [null, true, 9],
    ]);
    expect(JSON.stringify(body)).not.toContain(owner.id);
    const own = await t.request('/v2/analytics/summary?from=2025-03-01&to=2025-03-02', {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect((await own.json()).meta.attribution_scope).toBe('full');
  });
});
