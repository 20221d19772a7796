import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title.ts';

describe('the document title', () => {
  it('names the deepest page, then the app', () => {
    expect(
      documentTitle([
        { routeId: '__root__', params: {} },
        { routeId: '/_app', params: {} },
        { routeId: '/_app/jobs', params: {} },
      ]),
    ).toBe('Jobs · Media Console');
    expect(
      documentTitle([
        { routeId: '/_app/jobs', params: {} },
        { routeId: '/_app/jobs/$jobId', params: { jobId: 'job_42' } },
      ]),
    ).toBe('Job job_42 · Media Console');
    expect(documentTitle([{ routeId: '__root__', params: {} }])).toBe('Media Console');
  });
});
