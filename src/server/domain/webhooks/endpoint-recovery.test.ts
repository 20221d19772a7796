import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_ENDPOINT_LIMITS } from '../../../contract/webhook-endpoints.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { recoverMissedEvents } from './endpoint-recovery.ts';

let t: TestApp;
beforeAll(async () => {
  // No worker: what a recovery queued stays queued, so the counts are the recovery's alone.
  t = await createTestApp({}, { work: false });
});
afterAll(() => t?.close());

/** An enabled endpoint with `count` missed events (not sent while it was off), one second apart. */
async function endpointWithMissed(count: number, oldestDaysAgo = 1) {
  const teamId = (await t.clientFor((await signUp(t)).api_key).getMe()).team.id;
  const unique = randomBytes(6).toString('hex');
  const endpointId = `we_${unique}${'0'.repeat(12)}`;
  await t.db.query(
    `INSERT INTO webhook_endpoints (id, team_id, url, events) VALUES ($1, $2, 'https://hooks.example.com/in', '{budget.threshold_reached}')`,
    [endpointId, teamId],
  );
  await t.db.query(
    `INSERT INTO webhook_deliveries (webhook_id, team_id, endpoint_id, event_type, url, payload, status, created_at)
     SELECT 'msg_' || $5 || lpad(to_hex(n), 20, '0'), $1, $2, 'budget.threshold_reached', 'https://old.example.com/in',
            '{}', 'stopped', now() - make_interval(days => $4) + make_interval(secs => n)
       FROM generate_series(1, $3) AS n`,
    [teamId, endpointId, count, oldestDaysAgo, unique],
  );
  const webhookId = (n: number) => `msg_${unique}${n.toString(16).padStart(20, '0')}`;
  return { teamId, endpointId, webhookId };
}

async function statuses(endpointId: string) {
  const { rows } = await t.db.query<{ status: string; url: string; n: number }>(
    `SELECT status, url, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status, url ORDER BY status`,
    [endpointId],
  );
  return rows;
}

describe('recoverMissedEvents', () => {
  it('queues at most a batch per request, oldest first, and each missed event once', async () => {
    const max = WEBHOOK_ENDPOINT_LIMITS.recoverMaxPerRequest;
    const { teamId, endpointId, webhookId } = await endpointWithMissed(max + 2);

    const first = await recoverMissedEvents(t.services, teamId, endpointId, undefined);
    expect([first.queued, first.remaining]).toEqual([max, 2]);
    // The two left are the newest; the queued ones go to the endpoint's current URL.
    const left = await t.db.query<{ webhook_id: string }>(
      `SELECT webhook_id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'stopped' ORDER BY webhook_id`,
      [endpointId],
    );
    expect(left.rows.map((r) => r.webhook_id)).toEqual([webhookId(max + 1), webhookId(max + 2)]);
    const second = await recoverMissedEvents(t.services, teamId, endpointId, undefined);
    expect([second.queued, second.remaining]).toEqual([2, 0]);
    const third = await recoverMissedEvents(t.services, teamId, endpointId, undefined);
    expect([third.queued, third.remaining]).toEqual([0, 0]);
    expect(await statuses(endpointId)).toEqual([
      { status: 'pending', url: 'https://hooks.example.com/in', n: max + 2 },
    ]);
    // One queue job per missed event.
    const jobs = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery' AND data->>'webhook_id' IN
         (SELECT webhook_id FROM webhook_deliveries WHERE endpoint_id = $1)`,
      [endpointId],
    );
    expect(jobs.rows[0]!.n).toBe(max + 2);
  });

  it('leaves out what is older than the window, and what a later `since` excludes', async () => {
    const { teamId, endpointId } = await endpointWithMissed(3, WEBHOOK_ENDPOINT_LIMITS.recoverWindowDays + 1);
    const none = await recoverMissedEvents(t.services, teamId, endpointId, new Date(0));
    expect([none.queued, none.remaining]).toEqual([0, 0]);
    expect(Date.parse(none.since)).toBeGreaterThan(Date.now() - 8 * 86_400_000);
    expect(await statuses(endpointId)).toEqual([
      { status: 'stopped', url: 'https://old.example.com/in', n: 3 },
    ]);
  });
});
