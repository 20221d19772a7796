import type { z } from 'zod';
import type { ToolKey } from '../../../contract/common.ts';
import { describeIssues } from '../../../contract/errors.ts';
import {
  analyzeVideo,
  callTool,
  createImage,
  createMusic,
  createRender,
  createSpeech,
  createTranscription,
  createVideo,
  type GenerationHeaders,
  runFfmpeg,
  runPipeline,
  TOOL_REQUEST_BODIES,
  VIDEO_ANALYZE_MODEL,
} from '../../../contract/generation.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { createJob } from '../../domain/jobs/create-job.ts';
import { bucketName, hit, rateLimitHeaders } from '../../domain/rate-limit.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';

/** Job creation per API key (or per person in the app): generous, but a runaway loop stops here. */
export const JOB_CREATION_LIMIT = {
  label: 'jobs created with this key',
  limit: 300,
  windowSeconds: 60,
} as const;

type Headers = z.output<typeof GenerationHeaders> | undefined;

/** Counts one job creation against the caller's limit (429 past it); the RateLimit headers for the answer. */
export async function limitJobCreation(s: Services, auth: AuthContext): Promise<Record<string, string>> {
  const state = await hit(
    s.db,
    bucketName('job-create', auth.apiKeyId ?? `person:${auth.personId ?? auth.teamId}`),
    JOB_CREATION_LIMIT,
  );
  const { 'retry-after': _retry, ...headers } = rateLimitHeaders(state);
  return headers;
}

export function generationRoutes(s: Services, checkUrls: (urls: string[]) => Promise<void>) {
  async function create(auth: AuthContext, tool: ToolKey, body: Record<string, unknown>, headers: Headers) {
    const limitHeaders = await limitJobCreation(s, auth);
    const { job, replay } = await createJob(
      s,
      auth,
      { tool, body, idempotencyKey: headers?.['idempotency-key'], workspace: headers?.['x-workspace-id'] },
      checkUrls,
    );
    return reply(replay ? 200 : 202, job, limitHeaders);
  }

  const sugar = (tool: ToolKey) => async (input: { auth: AuthContext; body: unknown; headers: Headers }) =>
    create(input.auth, tool, input.body as Record<string, unknown>, input.headers);

  return [
    defineRoute(createImage, sugar('image')),
    defineRoute(createVideo, sugar('video')),
    defineRoute(analyzeVideo, async ({ auth, body, headers }) =>
      create(auth, 'video', { ...body, model: body.model ?? VIDEO_ANALYZE_MODEL }, headers),
    ),
    defineRoute(createSpeech, sugar('speech')),
    defineRoute(createMusic, sugar('music')),
    defineRoute(createTranscription, sugar('transcription')),
    defineRoute(runFfmpeg, sugar('ffmpeg')),
    defineRoute(createRender, sugar('render')),
    defineRoute(runPipeline, sugar('pipeline')),
    defineRoute(callTool, async ({ auth, params, body, headers }) => {
      // The body's schema depends on the path: validate it as the sugar route of that tool would.
      const parsed = TOOL_REQUEST_BODIES[params.tool_key].safeParse(body);
      if (!parsed.success) {
        const { message, fields } = describeIssues(parsed.error.issues);
        throw new AppError('invalid_request', message, { status: 422, details: { fields } });
      }
      return create(auth, params.tool_key, parsed.data as Record<string, unknown>, headers);
    }),
  ];
}
