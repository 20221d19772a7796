import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BLOCKED_DOMAINS: 'blocked.example' });
});
afterAll(() => t.close());

const sketch = (webhook_url: string) => ({
  model: 'local-sketch',
  prompt: 'tell me when done',
  options: { webhook_url },
});

describe('options.webhook_url at job creation', () => {
  it('refuses a private, loopback or blocked address with 403 forbidden, as input URLs are, and takes nothing', async () => {
    const p = await person(t);
    const before = await p.client.getMe();
    const inputRefusal = await failure(
      p.client.createImage({
        body: { model: 'local-edit', files: [{ url: 'http://10.0.0.8/in.png' }] },
      }),
    );
    expect(inputRefusal).toMatchObject({ status: 403, code: 'forbidden' });

    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://10.1.2.3/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest',
      'http://localhost/hook',
      'https://hooks.blocked.example/in',
    ]) {
      const error = await failure(p.client.createImage({ body: sketch(url) }));
      expect(error, url).toMatchObject({ status: 403, code: inputRefusal.code });
      expect(error.message, url).toContain('not allowed');
    }
    const after = await p.client.getMe();
    expect(after.balance_cents).toBe(before.balance_cents);
    const jobs = await t.db.query('SELECT 1 FROM jobs WHERE team_id = $1', [p.teamId]);
    expect(jobs.rowCount).toBe(0);
  });

  it('takes a public address', async () => {
    const p = await person(t);
    const job = await p.client.createImage({ body: sketch('http://203.0.114.9/hook') });
    expect(job.status).toBe('queued');
  });
});
