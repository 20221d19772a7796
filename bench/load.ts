import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

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

/*
 * A closed-loop HTTP/1.1 keep-alive load client on raw sockets: the request bytes are built once, and
 * answers are framed by a minimal parser (Content-Length or chunked) without building any objects. It
 * spends a small fraction of the CPU node:http's client does per request, so one thread can drive a
 * bare node:http server to its own limit (bench/load.ts checks that and prints the client's CPU).
 */

export interface RawLoadResult extends LoadResult {
  /** CPU this client used, as a share of one core over the run. */
  clientCpu: number;
  bodyBytes: number;
}

const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const TRAILER = 4;

/** Frames a stream of HTTP/1.1 responses, calling `done(status, bodyBytes)` after each full one. */
export class ResponseFramer {
  private state = HEAD;
  private rest: Buffer | null = null;
  private left = 0;
  private status = 0;
  private bodyBytes = 0;

  constructor(private readonly done: (status: number, bodyBytes: number) => void) {}

  feed(chunk: Buffer): void {
    const data = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let at = 0;
    while (at < data.length) {
      if (this.state === HEAD) {
        const end = data.indexOf('\r\n\r\n', at);
        if (end < 0) {
          this.rest = data.subarray(at);
          return;
        }
        const head = data.toString('latin1', at, end);
        at = end + 4;
        this.status = Number(head.slice(9, 12));
        this.bodyBytes = 0;
        const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
        if (length) {
          this.left = Number(length[1]);
          this.state = BODY;
        } else if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
          this.state = CHUNK_SIZE;
        } else {
          this.left = 0; // 204, 304, or an answer to HEAD
          this.state = BODY;
        }
        if (this.state === BODY && this.left === 0) this.finish();
      } else if (this.state === BODY || this.state === CHUNK_DATA) {
        const take = Math.min(this.left, data.length - at);
        at += take;
        this.left -= take;
        this.bodyBytes += take;
        if (this.left > 0) continue;
        if (this.state === BODY) this.finish();
        else {
          this.bodyBytes -= 2; // the CRLF after the chunk's data
          this.state = CHUNK_SIZE;
        }
      } else {
        const end = data.indexOf('\r\n', at);
        if (end < 0) {
          this.rest = data.subarray(at);
          return;
        }
        const line = data.toString('latin1', at, end);
        at = end + 2;
        if (this.state === TRAILER) {
          if (line === '') this.finish();
        } else {
          const size = Number.parseInt(line, 16);
          if (size === 0) this.state = TRAILER;
          else {
            this.left = size + 2;
            this.state = CHUNK_DATA;
          }
        }
      }
    }
  }

  private finish() {
    this.state = HEAD;
    this.done(this.status, this.bodyBytes);
  }
}

export function requestBytes(url: URL, headers: Record<string, string> = {}): Buffer {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** Runs `connections` keep-alive sockets for `seconds`, each sending the next request when the last is read. */
export async function rawLoad(url: string, options: LoadOptions): Promise<RawLoadResult> {
  const target = new URL(url);
  const request = requestBytes(target, options.headers);
  const latencies: number[] = [];
  let errors = 0;
  let bodyBytes = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  const lane = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
      let sentAt = 0;
      const send = () => {
        sentAt = performance.now();
        socket.write(request);
      };
      const framer = new ResponseFramer((status, bytes) => {
        const now = performance.now();
        if (status >= 200 && status < 400) {
          latencies.push(now - sentAt);
          bodyBytes = bytes;
        } else errors++;
        if (now < deadline) send();
        else socket.end();
      });
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => framer.feed(chunk));
      socket.on('error', () => {
        errors++;
      });
      socket.on('close', () => resolve());
    });

  await Promise.all(Array.from({ length: options.connections }, lane));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    bodyBytes,
  };
}

/**
 * CPU seconds used so far by a process and its descendants (Linux /proc; NaN elsewhere). The tree is read
 * from every process's parent id: /proc/<pid>/task/<pid>/children is missing on some kernels (this
 * machine's among them), and reading it made every figure 0.
 */
export function treeCpuSeconds(pid: number): number {
  if (!existsSync('/proc/self/stat')) return Number.NaN;
  const ticks = 100; // USER_HZ on Linux
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const id = Number(entry);
      const parent = Number(fields[1]);
      cpu.set(id, (Number(fields[11]) + Number(fields[12])) / ticks); // utime, stime
      children.set(parent, [...(children.get(parent) ?? []), id]);
    } catch {
      // The process ended while the list was read.
    }
  }
  const visit = (id: number): number =>
    (cpu.get(id) ?? 0) + (children.get(id) ?? []).reduce((sum, child) => sum + visit(child), 0);
  return visit(pid);
}
