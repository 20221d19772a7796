import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ToolKey } from '../../contract/common.ts';
import type { VideoAnalyzeRequest } from '../../contract/generation.ts';
import type { Job, JobStatusView } from '../../contract/jobs.ts';
import { VIDEO_ANALYZE_MODEL } from '../../contract/values.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { meKeys } from './me.ts';

/**
 * The playground's server state: tool schemas, creating jobs (with an Idempotency-Key), following a
 * job, the recent runs of a tool and the files people can reuse as inputs. Job keys live under
 * `['jobs']`, so whoever invalidates the jobs refreshes these too (the Files picker's pages included:
 * a finished job adds files).
 */
export const generationKeys = {
  schema: (tool: ToolKey, model: string | null) => ['tools', tool, 'schema', model] as const,
  get playground() {
    return teamScoped(['jobs', 'playground'] as const);
  },
  recent: (tool: ToolKey) => teamScoped(['jobs', 'playground', 'recent', tool] as const),
  get outputs() {
    return teamScoped(['jobs', 'playground', 'outputs'] as const);
  },
  files: (filter: FileFilter) => teamScoped(['jobs', 'playground', 'outputs', 'files', filter] as const),
  job: (id: string) => teamScoped(['jobs', 'playground', 'job', id] as const),
  status: (id: string) => teamScoped(['jobs', 'playground', 'status', id] as const),
  operations: ['openapi', 'operations'] as const,
};

/** A tool's metadata; with a model, `input_schema` carries that model's limits and provider options. */
export function toolSchemaQueryOptions(tool: ToolKey, model: string | null) {
  return queryOptions({
    queryKey: generationKeys.schema(tool, model),
    queryFn: () => api().getTool({ params: { tool_key: tool }, query: model ? { model } : {} }),
    staleTime: 5 * 60_000,
  });
}

/** What a submission is: the tool, the model (maybe pinned) and the body the form produced. */
export interface JobRequest {
  tool: ToolKey;
  body: Record<string, unknown>;
}

/** Video analysis is the `video` tool's model with its own route and body (spec 4.2). */
export function isAnalysis(request: { tool: ToolKey; body: Record<string, unknown> }): boolean {
  const model = typeof request.body.model === 'string' ? request.body.model : '';
  return request.tool === 'video' && model.replace(/^[^:]+:/, '') === VIDEO_ANALYZE_MODEL;
}

/** Sends one attempt. The key makes a repeat of the same attempt answer the same job (200, no new charge). */
export function createJob(request: JobRequest, idempotencyKey: string): Promise<Job> {
  const headers = { 'idempotency-key': idempotencyKey };
  if (isAnalysis(request)) {
    // Checked against the analysis schema by the form before it is sent.
    const body = request.body as z.input<typeof VideoAnalyzeRequest>;
    return api().analyzeVideo({ body, headers });
  }
  // The generic route takes every tool's body as its sugar route does (spec 4.2).
  return api().callTool({ params: { tool_key: request.tool }, body: request.body, headers });
}

/** Creates a job; afterwards the tool's recent runs and the balance (a hold was placed) are stale. */
export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: JobRequest; idempotencyKey: string }) =>
      createJob(request, idempotencyKey),
    onSuccess: (job) => {
      queryClient.setQueryData(generationKeys.job(job.id), job);
      void queryClient.invalidateQueries({ queryKey: generationKeys.recent(job.tool) });
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}

/** A job in full (input, model, cost), for the result area; read once and again when it settles. */
export function jobQueryOptions(id: string) {
  return queryOptions({
    queryKey: generationKeys.job(id),
    queryFn: () => api().getJob({ params: { id } }),
  });
}

const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5000;

/** Polls start quick (local jobs settle in a second) and back off to every 5 s for long ones. */
export function pollDelay(pollsSoFar: number): number {
  return Math.min(MAX_POLL_MS, Math.round(FIRST_POLL_MS * 1.5 ** pollsSoFar));
}

/** The next poll of a job's status: none once it is terminal, else after a growing delay. */
export function statusPollInterval(status: JobStatusView | undefined, pollsSoFar: number): number | false {
  return status?.terminal ? false : pollDelay(pollsSoFar);
}

/**
 * The light status of a job, polled while it is active with a backoff and not at all once it is
 * terminal. React Query stops interval polling in a hidden tab and refetches when it shows again.
 */
export function jobStatusQueryOptions(id: string) {
  return queryOptions({
    queryKey: generationKeys.status(id),
    queryFn: () => api().getJobStatus({ params: { id } }),
    staleTime: 0,
    refetchInterval: (query) => statusPollInterval(query.state.data, query.state.dataUpdateCount),
    refetchIntervalInBackground: false,
  });
}

export const RECENT_RUNS = 8;
const ACTIVE_LIST_POLL_MS = 3000;

/**
 * The newest runs of a tool, a page of RECENT_RUNS at a time (older pages on request, to compare older
 * runs), refreshed every few seconds while one of them is still running.
 */
export function recentRunsQueryOptions(tool: ToolKey) {
  return infiniteQueryOptions({
    queryKey: generationKeys.recent(tool),
    queryFn: ({ pageParam }) =>
      api().listJobs({
        query: { tool, limit: RECENT_RUNS, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((job) => !isSettled(job.status)))
        ? ACTIVE_LIST_POLL_MS
        : false,
  });
}

export function isSettled(status: Job['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api().cancelJob({ params: { id } }),
    onSuccess: (job) => {
      queryClient.setQueryData(generationKeys.job(job.id), job);
      void queryClient.invalidateQueries({ queryKey: generationKeys.status(job.id) });
      void queryClient.invalidateQueries({ queryKey: generationKeys.recent(job.tool) });
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}

/** A finished output that can be the input of another run. */
export interface ReusableOutput {
  url: string;
  mediaType: string;
  thumbnailUrl: string | null;
  jobId: string;
  tool: ToolKey;
  model: string;
  createdAt: string;
}

const OUTPUT_JOBS = 50;

/** The files the person's recent completed jobs produced (the "pick from Files" source). */
export function recentOutputsQueryOptions() {
  return queryOptions({
    queryKey: generationKeys.outputs,
    queryFn: async (): Promise<ReusableOutput[]> => {
      const page = await api().listJobs({ query: { status: 'completed', limit: OUTPUT_JOBS } });
      return page.data.flatMap((job) =>
        (job.output?.outputs ?? []).flatMap((output) =>
          output.url
            ? [
                {
                  url: output.url,
                  mediaType: output.media_type,
                  thumbnailUrl: output.thumbnail_url,
                  jobId: job.id,
                  tool: job.tool,
                  model: job.model,
                  createdAt: job.created_at,
                },
              ]
            : [],
        ),
      );
    },
  });
}

/**
 * The operations this server answers (`GET /v2/files`...), read from its OpenAPI document, which lists
 * only the routes it mounts. Asked once per session, and only when a file field is shown.
 */
function operationsQueryOptions() {
  return queryOptions({
    queryKey: generationKeys.operations,
    queryFn: async (): Promise<string[]> => {
      const paths = (await api().getOpenApiJson()).paths;
      if (!paths || typeof paths !== 'object') return [];
      return Object.entries(paths as Record<string, unknown>).flatMap(([path, item]) =>
        item && typeof item === 'object' ? Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`) : [],
      );
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Whether this server takes uploads through sessions (`POST /v2/files/upload-session`, up to 200 MB). */
export function uploadSupportQueryOptions() {
  return queryOptions({
    ...operationsQueryOptions(),
    select: (operations: string[]) => operations.includes('POST /v2/files/upload-session'),
  });
}

/** Whether this server lists the person's files (`GET /v2/files`); elsewhere the picker shows job outputs. */
export function fileListSupportQueryOptions() {
  return queryOptions({
    ...operationsQueryOptions(),
    select: (operations: string[]) => operations.includes('GET /v2/files'),
  });
}

/** Media families the Files picker narrows to (`image/*`...), or all files. */
export const MEDIA_KINDS = ['all', 'image', 'video', 'audio'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** What the Files picker asks for: a media family and name text (empty: any name). */
export interface FileFilter {
  kind: MediaKind;
  q: string;
}

export const FILES_PAGE = 24;

/** The person's files (uploads and job outputs), newest first, a page at a time (`next_cursor`). */
export function pickableFilesQueryOptions(filter: FileFilter) {
  const q = filter.q.trim();
  return infiniteQueryOptions({
    queryKey: generationKeys.files({ kind: filter.kind, q }),
    queryFn: ({ pageParam }) =>
      api().listFiles({
        query: {
          limit: FILES_PAGE,
          ...(pageParam ? { cursor: pageParam } : {}),
          ...(filter.kind === 'all' ? {} : { media_type: `${filter.kind}/*` }),
          ...(q ? { q: q.slice(0, 200) } : {}),
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page: { next_cursor: string | null }) => page.next_cursor,
  });
}

/** Runs a failed or cancelled job again as a new job linked to it (`retry_of`). */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, idempotencyKey }: { id: string; idempotencyKey: string }) =>
      api().retryJob({ params: { id }, headers: { 'idempotency-key': idempotencyKey } }),
    onSuccess: (job) => {
      queryClient.setQueryData(generationKeys.job(job.id), job);
      void queryClient.invalidateQueries({ queryKey: generationKeys.recent(job.tool) });
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}
