import { createHash } from 'node:crypto';
import type { z } from 'zod';
import {
  type FfmpegResizeV1Job,
  type FfmpegResizeV1Request,
  ffmpegResizeV1,
} from '../../../contract/generation.ts';
import type { Job } from '../../../contract/jobs.ts';
import { createJob } from '../../domain/jobs/create-job.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';
import { limitJobCreation } from './generation.ts';

type ResizeBody = z.output<typeof FfmpegResizeV1Request>;

/** v1 has one status for a job on its way (submitting and running are both `processing`). */
const V1_STATUS: Record<Job['status'], FfmpegResizeV1Job['status']> = {
  queued: 'queued',
  submitting: 'processing',
  running: 'processing',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The `POST /v2/ffmpeg` body a v1 resize stands for. */
export function resizeJobBody(body: ResizeBody): Record<string, unknown> {
  const resize: Record<string, unknown> = { op: 'resize' };
  if (body.width !== undefined) resize.width = body.width;
  if (body.height !== undefined) resize.height = body.height;
  resize.fit = body.fit;
  return { model: 'ffmpeg', files: [{ url: body.url }], operations: [resize] };
}

/**
 * `cache.key` of a v1 resize: sha256 (hex) of the normalised request (URL as parsed, absent sides null,
 * `fit` with its default), so the same resize always has the same key whatever the JSON looked like.
 */
export function resizeCacheKey(body: ResizeBody): string {
  const normalised = JSON.stringify([
    'ffmpeg/resize/v1',
    new URL(body.url).href,
    body.width ?? null,
    body.height ?? null,
    body.fit,
  ]);
  return createHash('sha256').update(normalised).digest('hex');
}

/** A job in the v1 shape (spec 9): optional fields only when they have a value. */
export function toResizeV1Job(job: Job, cacheKey: string): FfmpegResizeV1Job {
  const out: FfmpegResizeV1Job = {
    job_id: job.id,
    status: V1_STATUS[job.status],
    model: job.provider_model,
    created_at: job.created_at,
    cache: { hit: job.pricing.cached === true, key: cacheKey },
  };
  if (job.completed_at) out.completed_at = job.completed_at;
  const first = job.output?.outputs[0];
  if (job.status === 'completed' && first?.url) out.output = { url: first.url, media_type: first.media_type };
  if (job.status === 'failed') out.error = job.error?.message ?? 'The job failed.';
  return out;
}

/** `POST /v1/ffmpeg/resize` (spec 9): a `resize` job of the local ffmpeg engine, answered in the v1 shape. */
export function ffmpegV1Routes(s: Services, checkUrls: (urls: string[]) => Promise<void>) {
  return [
    defineRoute(ffmpegResizeV1, async ({ auth, body }) => {
      const limitHeaders = await limitJobCreation(s, auth);
      const { job } = await createJob(s, auth, { tool: 'ffmpeg', body: resizeJobBody(body) }, checkUrls);
      return reply(202, toResizeV1Job(job, resizeCacheKey(body)), limitHeaders);
    }),
  ];
}
