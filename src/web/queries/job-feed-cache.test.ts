import { describe, expect, it } from 'vitest';
import { freshJob } from '../../contract/test-fixtures.ts';
import { flattenPages, type JobFeedData, latestUpdate, mergeJobs } from './job-feed-cache.ts';

/** A job created `n` minutes after a fixed start: higher n is newer. */
const job = (n: number, overrides: Parameters<typeof freshJob>[0] = {}) => {
  const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
  return freshJob({ id: `job_${String(n).padStart(3, '0')}`, created_at: at, updated_at: at, ...overrides });
};

const feed = (pages: ReturnType<typeof job>[][], more = false): JobFeedData => ({
  pages: pages.map((data, i) => ({ data, next_cursor: i < pages.length - 1 || more ? `c${i}` : null })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});

const ids = (data: JobFeedData) => flattenPages(data).map((j) => j.id);
const later = (n: number, seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, n, seconds)).toISOString();

describe('merging live changes into the feed', () => {
  it('replaces a row with its newer state and leaves other pages untouched', () => {
    const data = feed([[job(5), job(4)], [job(3)]]);
    const running = job(4, { status: 'running', progress: 0.5, updated_at: later(4, 10) });
    const { data: merged, changes } = mergeJobs(data, [running], {});
    expect(changes).toBe(1);
    expect(merged.pages[0]!.data[1]).toBe(running);
    expect(merged.pages[1]).toBe(data.pages[1]);
  });

  it('never rolls a row back to an older state', () => {
    const done = job(4, { status: 'completed', updated_at: later(4, 20) });
    const data = feed([[job(5), done]]);
    const { data: merged, changes } = mergeJobs(
      data,
      [job(4, { status: 'running', updated_at: later(4, 5) })],
      {},
    );
    expect(changes).toBe(0);
    expect(merged).toBe(data);
  });

  it('removes a job that no longer matches the status filter', () => {
    const data = feed([[job(5, { status: 'running' }), job(4, { status: 'running' })]]);
    const { data: merged } = mergeJobs(data, [job(5, { status: 'completed', updated_at: later(5, 3) })], {
      status: 'queued,submitting,running',
    });
    expect(ids(merged)).toEqual(['job_004']);
  });

  it('inserts new jobs in feed order, newest first', () => {
    const data = feed([[job(5), job(3)]]);
    const { data: merged, changes } = mergeJobs(data, [job(4), job(7), job(6)], {});
    expect(changes).toBe(3);
    expect(ids(merged)).toEqual(['job_007', 'job_006', 'job_005', 'job_004', 'job_003']);
  });

  it('leaves a job older than every loaded row to the next page while there is one', () => {
    const { changes } = mergeJobs(feed([[job(5), job(4)]], true), [job(1)], {});
    expect(changes).toBe(0);
    const { data: complete } = mergeJobs(feed([[job(5), job(4)]]), [job(1)], {});
    expect(ids(complete)).toEqual(['job_005', 'job_004', 'job_001']);
  });

  it('does not insert jobs outside the filters', () => {
    const { changes } = mergeJobs(feed([[job(5)]]), [job(6, { tool: 'video' })], { tool: 'image' });
    expect(changes).toBe(0);
  });

  it('fills an empty feed', () => {
    const { data } = mergeJobs(feed([[]]), [job(2), job(3)], {});
    expect(ids(data)).toEqual(['job_003', 'job_002']);
  });

  it('finds the latest update', () => {
    expect(latestUpdate([job(1), job(3), job(2)])).toBe(job(3).updated_at);
    expect(latestUpdate([])).toBeNull();
    expect(latestUpdate([job(1)], job(2).updated_at)).toBe(job(2).updated_at);
  });
});
