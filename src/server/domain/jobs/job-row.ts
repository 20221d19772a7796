import type { ToolKey } from '../../../contract/common.ts';
import type { Job, JobStatus, JobStatusView } from '../../../contract/jobs.ts';
import type { RunEstimate } from '../../../contract/run-times.ts';
import type { ChargeAttribution } from '../billing/ledger.ts';

/** A row of `jobs`, as node-postgres returns it. */
export interface JobRow {
  id: string;
  team_id: string;
  api_key_id: string | null;
  person_id: string | null;
  source: 'app' | 'api' | 'mcp' | 'internal';
  tool: ToolKey;
  model: string;
  status: JobStatus;
  input: Record<string, unknown>;
  output: Job['output'];
  error: Job['error'];
  progress: number | null;
  progress_message: string | null;
  progress_metadata: Record<string, unknown>;
  estimated_duration_ms: number;
  /** Null on jobs made before migration 031. */
  estimated_run: RunEstimate | null;
  estimated_cost_cents: number;
  actual_cost_cents: number | null;
  pricing_id: string;
  billing: string;
  cached: boolean | null;
  billed_units: Record<string, number> | null;
  provider: string;
  provider_model: string;
  provider_status: string | null;
  provider_job_id: string | null;
  folder_id: string | null;
  webhook_url: string | null;
  retry_of: string | null;
  cache_key: string | null;
  held_cents: number;
  /** The current run's lease (see job-lease.ts): its fence token, its server instance, until when. */
  run_token: string | null;
  run_instance: number | null;
  lease_expires_at: Date | null;
  /** External providers (run-remote-job.ts): when the creating request was sent, and when it was taken. */
  provider_sent_at: Date | null;
  submitted_at: Date | null;
  /** When the provider was first seen running the job, and seen done with it. */
  provider_started_at: Date | null;
  provider_finished_at: Date | null;
  /** The tail of the provider's log of the job. */
  provider_logs: string | null;
  /** Runs of this job that ended by throwing (see letGoAfterThrow). */
  run_failures: number;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Lifecycle URLs of a job (spec 2.1), absolute under `{base_url}`. */
export function jobUrls(baseUrl: string, id: string): NonNullable<Job['urls']> {
  const self = `${baseUrl}/jobs/${id}`;
  return {
    self,
    status: `${self}/status`,
    refresh: `${self}/refresh`,
    cancel: `${self}/cancel`,
    retry: `${self}/retry`,
  };
}

/** The Job resource (spec 2.1) of a row. */
export function toJob(row: JobRow, baseUrl: string): Job {
  return {
    id: row.id,
    status: row.status,
    tool: row.tool,
    input: row.input,
    output: row.status === 'completed' ? row.output : null,
    error: row.error,
    progress_message: row.progress_message,
    progress: row.progress,
    progress_metadata: row.progress_metadata,
    estimated_duration_ms: row.estimated_duration_ms,
    estimated_run: row.estimated_run ?? null,
    estimated_cost_cents: row.estimated_cost_cents,
    actual_cost_cents: row.actual_cost_cents,
    pricing: {
      estimated: row.estimated_cost_cents,
      actual: row.actual_cost_cents,
      billing: row.billing,
      cached: row.cached,
      billed_units: row.billed_units,
      pricing_id: row.pricing_id,
    },
    provider: row.provider,
    provider_model: row.provider_model,
    provider_status: row.provider_status,
    provider_job_id: row.provider_job_id,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    urls: jobUrls(baseUrl, row.id),
    model: row.model,
    updated_at: row.updated_at.toISOString(),
    folder_id: row.folder_id,
    api_key_id: row.api_key_id,
    person_id: row.person_id,
    source: row.source,
    retry_of: row.retry_of,
    timeline: {
      created_at: row.created_at.toISOString(),
      started_at: iso(row.started_at),
      submitted_at: iso(row.submitted_at),
      provider_started_at: iso(row.provider_started_at),
      provider_finished_at: iso(row.provider_finished_at),
      completed_at: iso(row.completed_at),
    },
    provider_logs: row.provider_logs,
  };
}

export function toStatusView(row: JobRow): JobStatusView {
  const terminal = row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled';
  return {
    id: row.id,
    status: row.status,
    terminal,
    progress: row.progress,
    progress_message: row.progress_message,
    provider_status: row.provider_status,
    output: row.status === 'completed' ? row.output : null,
    error: row.error,
    updated_at: row.updated_at.toISOString(),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
  };
}

export function attributionOf(row: JobRow): ChargeAttribution {
  return {
    teamId: row.team_id,
    personId: row.person_id,
    apiKeyId: row.api_key_id,
    source: row.source,
    tool: row.tool,
    model: row.model,
    folderId: row.folder_id,
    jobId: row.id,
    jobStatus: row.status,
  };
}
