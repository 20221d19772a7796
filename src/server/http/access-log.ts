import type { Logger } from '../logger.ts';

export interface AccessEntry {
  requestId: string;
  method: string;
  /** The path without its query (queries may carry emails). */
  path: string;
  /** The matched route's pattern, which the summary counts by (ids would make a row each). */
  route: string;
  status: number;
  ms: number;
}

export interface AccessLogOptions {
  /** Ordinary requests written one line each per second before the rest is only counted. */
  linesPerSecond: number;
  /** A request at least this slow is always written. */
  slowMs: number;
  /** How often the counted requests are written as one summary line. */
  summarySeconds: number;
  now: () => number;
}

const DEFAULTS: AccessLogOptions = { linesPerSecond: 50, slowMs: 1000, summarySeconds: 10, now: Date.now };

/** Public capability URLs: the id in the path is the access, so the line shows the pattern instead. */
const CAPABILITY_PATHS = ['/media/', '/uploads/'];

interface Tally {
  method: string;
  route: string;
  status: number;
  count: number;
  totalMs: number;
  maxMs: number;
}

/**
 * The access log, sampled under load: every server error (5xx) and every slow request is written, other
 * requests one line each until `linesPerSecond` is spent in the current second, and the rest are counted
 * by method, route and status, written as one `requests summary` line per `summarySeconds`. One line per
 * request grows with the load itself: under full load, writing it would take a large share of the
 * throughput.
 */
export class AccessLog {
  private readonly options: AccessLogOptions;
  private second = 0;
  private linesThisSecond = 0;
  private tallies = new Map<string, Tally>();
  private summaryStarted = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Logger,
    options: Partial<AccessLogOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  record(entry: AccessEntry): void {
    if (!this.log.requestsEnabled) return;
    const now = this.options.now();
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.linesThisSecond = 0;
    }
    const always = entry.status >= 500 || entry.ms >= this.options.slowMs;
    if (always || this.linesThisSecond < this.options.linesPerSecond) {
      if (!always) this.linesThisSecond++;
      const path = CAPABILITY_PATHS.some((p) => entry.path.startsWith(p)) ? entry.route : entry.path;
      this.log.request(entry.requestId, entry.method, path, entry.status, entry.ms);
      return;
    }
    this.count(entry, now);
  }

  /** Writes the pending summary, if any request was only counted. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.tallies.size === 0) return;
    const routes = [...this.tallies.values()].map((t) => ({
      method: t.method,
      route: t.route,
      status: t.status,
      count: t.count,
      ms_avg: Math.round((t.totalMs / t.count) * 10) / 10,
      ms_max: t.maxMs,
    }));
    const seconds = Math.round((this.options.now() - this.summaryStarted) / 100) / 10;
    this.tallies = new Map();
    this.log.info('requests summary', {
      seconds,
      counted: routes.reduce((sum, r) => sum + r.count, 0),
      routes: routes.sort((a, b) => b.count - a.count),
    });
  }

  private count(entry: AccessEntry, now: number) {
    if (this.tallies.size === 0) {
      this.summaryStarted = now;
      // Unref'd: a pending summary never keeps the process alive (at exit, at most one interval is unwritten).
      this.timer = setTimeout(() => this.flush(), this.options.summarySeconds * 1000);
      this.timer.unref();
    }
    const key = `${entry.method} ${entry.route} ${entry.status}`;
    const tally = this.tallies.get(key);
    if (tally) {
      tally.count++;
      tally.totalMs += entry.ms;
      if (entry.ms > tally.maxMs) tally.maxMs = entry.ms;
    } else {
      this.tallies.set(key, {
        method: entry.method,
        route: entry.route,
        status: entry.status,
        count: 1,
        totalMs: entry.ms,
        maxMs: entry.ms,
      });
    }
  }
}
