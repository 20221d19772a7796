import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import { insertTestJob } from '../../domain/webhooks/webhook-test-support.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  // No worker: the queued try stays queued, so the delivery is still in progress for the 409.
  t = await createTestApp({}, { work: false });
});
afterAll(() => t?.close());

const redeliver = (token: string, jobId: string) =>
  t.request(`/v2/jobs/${jobId}/webhook-deliveries/redeliver`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });

describe('POST /v2/jobs/{id}/webhook-deliveries/redeliver', () => {
  it('queues the next try (202), then answers 409 while it is in progress', async () => {
    const { api_key } = await signUp(t);
    const client = t.clientFor(api_key);
    const teamId = (await client.getMe()).team.id;
    const job = await insertTestJob(t.db, teamId);
    await t.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, team_id, job_id, event_type, url, payload, status, attempts)
       VALUES ('msg_redeliver', $1, $2, 'job.completed', 'https://hooks.example.com/x', '{}', 'failed', 3)`,
      [teamId, job.id],
    );
    const queued = await client.redeliverJobWebhook({ params: { id: job.id } });
    expect(queued).toEqual({ webhook_id: 'msg_redeliver', attempt: 4 });

    const again = await redeliver(api_key, job.id);
    expect(again.status).toBe(409);
    expect(ErrorEnvelope.parse(await again.json()).error.code).toBe('conflict');
  });

  it("answers 404 for a job without a webhook and for another team's job", async () => {
    const owner = await signUp(t);
    const job = await insertTestJob(t.db, (await t.clientFor(owner.api_key).getMe()).team.id);
    const mine = await redeliver(owner.api_key, job.id);
    expect(mine.status).toBe(404);
    const stranger = await redeliver((await signUp(t)).api_key, job.id);
    expect(stranger.status).toBe(404);
    expect(ErrorEnvelope.parse(await stranger.json()).error.code).toBe('not_found');
  });
});
