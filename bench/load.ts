import { execFile, spawnSync } from 'node:child_process';
import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Sent with every request, for example `{ authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
}

/** Closed-loop load: `connections` keep-alive clients each send the next GET as soon as the last answers. */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.get(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          headers: options.headers,
          agent,
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - started);
            else errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

/** The same load with wrk (C, epoll; Debian package `wrk`) when installed: it can drive a server harder than Node can. */
export async function loadWithWrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  const output = await new Promise<string>((resolve, reject) =>
    execFile(
      'wrk',
      ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', ...headerArgs, url],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
  const number = (pattern: RegExp) => Number(output.match(pattern)?.[1] ?? Number.NaN);
  const ms = (pattern: RegExp) => {
    const match = output.match(pattern);
    if (!match) return Number.NaN;
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  const requests = number(/(\d+) requests in/);
  const errors = number(/Non-2xx or 3xx responses: (\d+)/) || 0;
  return {
    requests,
    errors,
    seconds: options.seconds,
    perSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99Ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
  };
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}
