import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';
import { expectedRunMs } from './expected-run.ts';

describe('the expected run of a new job', () => {
  it("is the catalog's typical time until this server has measured a few runs", () => {
    expect(expectedRunMs([], {}, 6_000)).toBe(6_000);
    expect(
      expectedRunMs(
        [
          { ms: 20_000, seconds: 60 },
          { ms: 21_000, seconds: 60 },
        ],
        {},
        6_000,
      ),
    ).toBe(6_000);
  });

  it('is the median of the measured runs', () => {
    const runs = [900, 1_000, 5_000].map((ms) => ({ ms, seconds: null }));
    expect(expectedRunMs(runs, {}, 6_000)).toBe(1_000);
  });

  it('grows with the length asked for, from the measured time per second', () => {
    // 5 s videos took 2 s to make: a 60 s one takes about 24 s, not the catalog's 6 s.
    const runs = [1_900, 2_000, 2_100].map((ms) => ({ ms, seconds: 5 }));
    expect(expectedRunMs(runs, { duration: 60 }, 6_000)).toBe(24_000);
    expect(expectedRunMs(runs, {}, 6_000)).toBe(2_000);
  });
});

describe('measured on this server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sets estimated_duration_ms from the completed runs of the same model', async () => {
    const { client } = await person(t);
    const sketch = (prompt: string) =>
      client.createImage({ body: { model: 'local-sketch', prompt, options: { cache: false } } });
    const first = await sketch('a kite 1');
    const typical = first.estimated_duration_ms;
    const ran: number[] = [];
    for (const job of [first, await sketch('a kite 2'), await sketch('a kite 3')]) {
      const done = await waitForTerminal(client, job.id);
      expect(done.status).toBe('completed');
      ran.push(Date.parse(done.completed_at!) - Date.parse(done.started_at!));
    }
    const next = await sketch('a kite 4');
    const median = [...ran].sort((a, b) => a - b)[1]!;
    expect(next.estimated_duration_ms).not.toBe(typical);
    // The API's timestamps are to the millisecond; the database measures finer.
    expect(Math.abs(next.estimated_duration_ms - median)).toBeLessThanOrEqual(1);
  });
});
