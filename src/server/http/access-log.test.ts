import { describe, expect, it } from 'vitest';
import { createLogger, type LogLevel } from '../logger.ts';
import { type AccessEntry, AccessLog } from './access-log.ts';

function setup(level: LogLevel = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  let now = 1_700_000_000_000;
  const log = createLogger(level, (line) => lines.push(JSON.parse(line)));
  const access = new AccessLog(log, { linesPerSecond: 3, slowMs: 500, summarySeconds: 10, now: () => now });
  return {
    access,
    lines,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

let counter = 0;
const entry = (over: Partial<AccessEntry> = {}): AccessEntry => ({
  requestId: `req_${counter++}`,
  method: 'GET',
  path: '/v2/jobs/job_1',
  route: '/v2/jobs/:id',
  status: 200,
  ms: 2,
  ...over,
});

describe('access log under load', () => {
  it('writes a line per request until the second’s budget is spent, then counts the rest', () => {
    const { access, lines } = setup();
    for (let i = 0; i < 10; i++) access.record(entry({ ms: i }));
    expect(lines.map((l) => l.msg)).toEqual(['request', 'request', 'request']);
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/v2/jobs/job_1', status: 200 });
    access.flush();
    expect(lines[3]).toMatchObject({
      msg: 'requests summary',
      counted: 7,
      routes: [{ method: 'GET', route: '/v2/jobs/:id', status: 200, count: 7, ms_avg: 6, ms_max: 9 }],
    });
  });

  it('always writes server errors and slow requests, and counts by route and status', () => {
    const { access, lines } = setup();
    for (let i = 0; i < 3; i++) access.record(entry());
    access.record(entry({ status: 500 }));
    access.record(entry({ status: 503, route: '/v2/pricing', path: '/v2/pricing' }));
    access.record(entry({ ms: 750 }));
    access.record(entry({ status: 404 }));
    access.record(entry({ status: 404 }));
    access.record(entry({ route: '/v2/pricing', path: '/v2/pricing' }));
    expect(lines.filter((l) => l.msg === 'request').map((l) => [l.status, l.ms])).toEqual([
      [200, 2],
      [200, 2],
      [200, 2],
      [500, 2],
      [503, 2],
      [200, 750],
    ]);
    access.flush();
    const summary = lines.at(-1)!;
    expect(summary.counted).toBe(3);
    expect(summary.routes).toEqual([
      { method: 'GET', route: '/v2/jobs/:id', status: 404, count: 2, ms_avg: 2, ms_max: 2 },
      { method: 'GET', route: '/v2/pricing', status: 200, count: 1, ms_avg: 2, ms_max: 2 },
    ]);
  });

  it('gives each second a new budget, and writes no summary when nothing was only counted', () => {
    const { access, lines, advance } = setup();
    for (let i = 0; i < 3; i++) access.record(entry());
    advance(1000);
    for (let i = 0; i < 3; i++) access.record(entry());
    access.flush();
    expect(lines.map((l) => l.msg)).toEqual(Array(6).fill('request'));
  });

  it('shows capability URLs by their pattern, never their id', () => {
    const { access, lines } = setup();
    access.record(entry({ path: '/media/f_secretid123/photo.png', route: '/media/:id/:name' }));
    expect(lines[0]!.path).toBe('/media/:id/:name');
    expect(JSON.stringify(lines)).not.toContain('secretid123');
  });

  it('gathers nothing above info', () => {
    const { access, lines } = setup('warn');
    for (let i = 0; i < 10; i++) access.record(entry({ status: i % 2 ? 500 : 200 }));
    access.flush();
    expect(lines).toEqual([]);
  });
});
