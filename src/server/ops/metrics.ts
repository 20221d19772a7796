import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Queryable } from '../db/pool.ts';
import { queueBacklog } from './queue-backlog.ts';

/**
 * This process's Prometheus metrics, one registry per Services (tests build many in one process).
 * Labels are bounded sets: route patterns (never raw ids), statuses, queue names, tools, providers.
 */
export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  requestSeconds: Histogram<'method' | 'route'>;
  jobOutcomes: Counter<'tool' | 'provider' | 'status'>;
  webhookAttempts: Counter<'outcome'>;
}

export function createMetrics(db: Queryable, role: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being made, by route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobOutcomes = new Counter({
    name: 'jobs_finished_total',
    help: 'Jobs that reached a terminal state in this process, by tool, provider and status.',
    labelNames: ['tool', 'provider', 'status'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery tries made by this process, by outcome (delivered, retry, stopped, skipped).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Queue gauges read pg-boss's tables, shared by every process: cached so scrapes stay cheap.
  const backlog = queueBacklog(db);
  new Gauge({
    name: 'queue_depth',
    help: 'Messages waiting in each queue (due now), and running (state="active"). Cached up to 5 s.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await backlog()) {
        this.set({ queue: q.queue, state: 'waiting' }, q.waiting);
        this.set({ queue: q.queue, state: 'active' }, q.active);
      }
    },
  });
  new Gauge({
    name: 'queue_oldest_waiting_seconds',
    help: 'Age of the oldest message due in each queue that no worker has taken yet (0 when none). Cached up to 5 s.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await backlog()) this.set({ queue: q.queue }, q.oldestWaitingSeconds);
    },
  });
  return { registry, requests, requestSeconds, jobOutcomes, webhookAttempts };
}
