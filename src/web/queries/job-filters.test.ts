import { describe, expect, it } from 'vitest';
import { freshJob } from '../../contract/test-fixtures.ts';
import { JobFeedSearch, jobMatches, listQueryOf, normalizeFilters } from './job-filters.ts';

describe('job feed filters', () => {
  it('reads the URL, dropping what is not a valid filter', () => {
    const filters = JobFeedSearch({
      status: 'running,bogus,queued',
      tool: 'nope',
      model: 'local-sketch',
      folder: 'not-a-uuid',
      key: 'key_abc',
      from: '2026-11-01',
      to: 'yesterday',
    });
    expect(normalizeFilters(filters)).toEqual({
      status: 'queued,running',
      model: 'local-sketch',
      key: 'key_abc',
      from: '2026-11-01',
    });
  });

  it('orders keys and values so equal filters make equal query keys', () => {
    const a = normalizeFilters(JobFeedSearch({ tool: 'video,image', status: 'failed' }));
    const b = normalizeFilters(JobFeedSearch({ status: 'failed', tool: 'image,video' }));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('turns local days into an exclusive instant range, and can leave the status out', () => {
    const query = listQueryOf(
      { status: 'running', from: '2026-11-01', to: '2026-11-02' },
      { withStatus: false },
    );
    expect(query.status).toBeUndefined();
    expect(query.created_from).toBe(new Date(2026, 10, 1).toISOString());
    expect(query.created_to).toBe(new Date(2026, 10, 3).toISOString());
  });

  it('matches a job as the server would', () => {
    const job = freshJob({ status: 'running', tool: 'video', model: 'local-motion', api_key_id: null });
    expect(jobMatches(job, {})).toBe(true);
    expect(jobMatches(job, { status: 'queued,running', tool: 'video' })).toBe(true);
    expect(jobMatches(job, { status: 'completed' })).toBe(false);
    expect(jobMatches(job, { model: 'local-sketch' })).toBe(false);
    expect(jobMatches(job, { key: 'none' })).toBe(true);
    expect(jobMatches(job, { key: 'key_abc' })).toBe(false);
    expect(jobMatches(job, { folder: 'none' })).toBe(true);
    expect(jobMatches(job, { error: 'provider_timeout' })).toBe(false);
  });

  it('filters by error code as the server does (a failed job without one is unknown)', () => {
    const timedOut = freshJob({ status: 'failed', error: { code: 'provider_timeout', message: 'x' } });
    const noCode = freshJob({ status: 'failed', error: null });
    expect(jobMatches(timedOut, { error: 'provider_timeout' })).toBe(true);
    expect(jobMatches(timedOut, { error: 'content_policy' })).toBe(false);
    expect(jobMatches(noCode, { error: 'unknown' })).toBe(true);
    expect(listQueryOf({ error: 'provider_timeout' }).error_code).toBe('provider_timeout');
    expect(normalizeFilters(JobFeedSearch({ error: 'DROP TABLE' }))).toEqual({});
  });
});
