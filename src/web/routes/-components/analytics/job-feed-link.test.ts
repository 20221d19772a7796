import { describe, expect, it } from 'vitest';
import { instantOf, jobFeedLink } from './job-feed-link.ts';

describe('from analytics to the job feed', () => {
  it('carries tools, statuses, one model, folder and key, and the range as local days', () => {
    // The test runs in the machine's timezone: build the instants from local days so it holds anywhere.
    const start = new Date(2026, 10, 1).getTime();
    const end = new Date(2026, 10, 8).getTime();
    const link = jobFeedLink(
      { capability: 'video,image', status: 'failed', model: 'flux-dev', folder: 'none', api_key: 'key_abc' },
      start,
      end,
    );
    expect(link.search).toEqual({
      tool: 'image,video',
      status: 'failed',
      model: 'flux-dev',
      folder: 'none',
      key: 'key_abc',
      from: '2026-11-01',
      to: '2026-11-07',
    });
    expect(link.dropped).toEqual([]);
  });

  it('names the filters the feed cannot apply instead of pretending', () => {
    const start = new Date(2026, 10, 1).getTime();
    const link = jobFeedLink(
      {
        model: 'a,b',
        member: 'a0000000-0000-4000-8000-000000000001',
        source: 'api',
        status: 'awaiting_confirmation',
      },
      start,
      start + 3_600_000,
    );
    expect(link.search).toEqual({ from: '2026-11-01', to: '2026-11-01' });
    expect(link.dropped.sort()).toEqual(['member', 'model', 'source', 'status']);
  });

  it('reads a date bound as midnight in the view’s timezone', () => {
    expect(new Date(instantOf('2026-03-08', 'America/New_York')).toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
    expect(new Date(instantOf('2026-03-09', 'America/New_York')).toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
  });
});
