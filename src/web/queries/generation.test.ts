import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { JobStatusView } from '../../contract/jobs.ts';
import { json, stubFetch } from '../testing/fake-fetch.ts';
import {
  createJob,
  isAnalysis,
  jobStatusQueryOptions,
  pollDelay,
  recentOutputsQueryOptions,
  statusPollInterval,
} from './generation.ts';

describe('creating jobs', () => {
  it('sends video analysis to its own route and every other tool to the generic one, with the key', async () => {
    const api = stubFetch({
      'POST /v2/video/analyze': () => json({ id: 'job_a' }, { status: 202 }),
      'POST /v2/tools/video/call': () => json({ id: 'job_b' }, { status: 202 }),
    });
    await createJob(
      { tool: 'video', body: { model: 'video-analyze', video_url: 'https://e.com/a.mp4' } },
      'k1',
    );
    await createJob({ tool: 'video', body: { model: 'local-motion', prompt: 'x' } }, 'k2');
    expect(api.callsTo('POST /v2/video/analyze')[0]?.headers.get('idempotency-key')).toBe('k1');
    expect(api.callsTo('POST /v2/tools/video/call')[0]?.headers.get('idempotency-key')).toBe('k2');
    expect(isAnalysis({ tool: 'video', body: { model: 'local:video-analyze' } })).toBe(true);
    expect(isAnalysis({ tool: 'image', body: { model: 'video-analyze' } })).toBe(false);
  });
});

describe('following a job', () => {
  it('polls quickly at first, then backs off to every 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(pollDelay)).toEqual([500, 750, 1125, 1688, 2531, 3797, 5000, 5000]);
  });

  it('polls while the job is active, stops once it is terminal, and not in a hidden tab', () => {
    const running = { terminal: false } as JobStatusView;
    const done = { terminal: true } as JobStatusView;
    expect(statusPollInterval(undefined, 0)).toBe(500);
    expect(statusPollInterval(running, 3)).toBe(pollDelay(3));
    expect(statusPollInterval(done, 3)).toBe(false);
    expect(jobStatusQueryOptions('job_1').refetchIntervalInBackground).toBe(false);
  });
});

describe('outputs to reuse as inputs', () => {
  it('lists the files of completed jobs, skipping inline results', async () => {
    const api = stubFetch({
      'GET /v2/jobs': () =>
        json({
          data: [
            {
              id: 'job_1',
              tool: 'image',
              model: 'local-sketch',
              created_at: '2026-01-01T00:00:00Z',
              output: {
                version: 'v1',
                outputs: [
                  {
                    url: 'https://e.com/a.png',
                    media_type: 'image/png',
                    thumbnail_url: 'https://e.com/t.webp',
                  },
                  { url: null, media_type: 'application/json', thumbnail_url: null, data: {} },
                ],
              },
            },
          ],
          next_cursor: null,
        }),
    });
    const outputs = await new QueryClient().fetchQuery(recentOutputsQueryOptions());
    expect(outputs).toEqual([
      {
        url: 'https://e.com/a.png',
        mediaType: 'image/png',
        thumbnailUrl: 'https://e.com/t.webp',
        jobId: 'job_1',
        tool: 'image',
        model: 'local-sketch',
        createdAt: '2026-01-01T00:00:00Z',
      },
    ]);
    expect(api.calls[0]?.url.searchParams.get('status')).toBe('completed');
  });
});
