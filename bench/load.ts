import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Closed-loop load: `connections` keep-alive clients each send the next GET as soon as the last answers. */
export async function load(
  url: string,
  options: { connections: number; seconds: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.get(
        { host: target.hostname, port: target.port, path: target.pathname, agent },
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
