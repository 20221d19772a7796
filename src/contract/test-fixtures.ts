import type { z } from 'zod';
import type { ApiKey } from './api-keys.ts';
import type { Job } from './jobs.ts';

/** What a parse reported: one `path: code` line per issue; empty when the value is valid. */
export function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.code}`);
}

/** The parsed value; throws with the issues when the value is invalid (so a test shows why). */
export function parseOk<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`expected a valid value: ${JSON.stringify(parsed.error.issues)}`);
  return parsed.data;
}

/** A job as the service answers it right after creation (spec 2.1: queued, nulls, urls present). */
export function freshJob(overrides: Partial<Job> = {}): Job {
  const base = 'http://localhost:8787/v2/jobs/job_01';
  return {
    id: 'job_01',
    status: 'queued',
    tool: 'image',
    input: { model: 'flux-schnell', prompt: 'a red fox' },
    output: null,
    error: null,
    progress_message: null,
    progress: null,
    progress_metadata: {},
    estimated_duration_ms: 4000,
    estimated_run: { basis: 'typical', p50_ms: 4000, p90_ms: 4000, runs: 0, scaled_to_seconds: null },
    estimated_cost_cents: 3,
    actual_cost_cents: null,
    pricing: {
      estimated: 3,
      actual: null,
      billing: 'per_image',
      cached: null,
      billed_units: null,
      pricing_id: 'p_1',
    },
    provider: 'local',
    provider_model: 'local:flux-schnell',
    provider_status: null,
    provider_job_id: null,
    created_at: '2025-01-01T00:00:00.000Z',
    started_at: null,
    completed_at: null,
    urls: {
      self: base,
      status: `${base}/status`,
      refresh: `${base}/refresh`,
      cancel: `${base}/cancel`,
      retry: `${base}/retry`,
    },
    model: 'flux-schnell',
    updated_at: '2025-01-01T00:00:00.000Z',
    folder_id: null,
    api_key_id: 'key_abc',
    person_id: null,
    source: 'api',
    retry_of: null,
    timeline: {
      created_at: '2025-01-01T00:00:00.000Z',
      started_at: null,
      submitted_at: null,
      provider_started_at: null,
      provider_finished_at: null,
      completed_at: null,
    },
    provider_logs: null,
    ...overrides,
  };
}

/** The same job once completed, as `GET /jobs/{id}` answers it. */
export function completedJob(overrides: Partial<Job> = {}): Job {
  return freshJob({
    status: 'completed',
    output: {
      version: 'v1',
      outputs: [
        {
          url: 'http://localhost:8787/files/file_1/fox.png',
          file_id: 'file_1',
          media_type: 'image/png',
          size_bytes: 1234,
          thumbnail_url: 'http://localhost:8787/files/file_1/thumb.jpg',
        },
      ],
    },
    actual_cost_cents: 3,
    pricing: {
      estimated: 3,
      actual: 3,
      billing: 'per_image',
      cached: false,
      billed_units: { images: 1 },
      pricing_id: 'p_1',
    },
    provider_status: 'succeeded',
    provider_job_id: 'local-123',
    started_at: '2025-01-01T00:00:01.000Z',
    completed_at: '2025-01-01T00:00:05.000Z',
    updated_at: '2025-01-01T00:00:05.000Z',
    ...overrides,
  });
}

/**
 * A key record as the service lists it: owned by `owner`, unrestricted, never rotated, no spend limit (a
 * new field of the record gets its neutral value here once, for every test that builds one).
 */
export function freshApiKey(owner: ApiKey['owner'], overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_ci',
    name: 'CI',
    start: 'mcsk_AbC',
    last4: 'wxyz',
    revealable: true,
    owner,
    team_id: '00000000-0000-4000-8000-0000000000f0',
    relation: 'owned',
    shared: false,
    share_count: 0,
    created_at: '2026-11-20T10:00:00.000Z',
    last_used_at: null,
    revoked_at: null,
    expires_at: null,
    allowed_tools: null,
    allowed_models: null,
    allowed_ips: null,
    read_only: false,
    rate_limit_per_minute: null,
    max_concurrent_jobs: null,
    service: false,
    rotated_at: null,
    previous_secret_expires_at: null,
    spend_limit: null,
    ...overrides,
  };
}
