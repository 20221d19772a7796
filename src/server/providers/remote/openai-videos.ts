import type { RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { inputFileOf } from './native-input.ts';
import { MODERATION_CODES, OPENAI, type OpenAIApi } from './openai-api.ts';
import { closestSize } from './openai-images.ts';
import type { RemoteJobState, SubmitContext, SubmittedInput } from './remote-provider.ts';
import { fieldParts, filePart, providerOptions, sendingForm, streamedForm } from './upload-form.ts';

/**
 * OpenAI Videos API (Sora), a polled job:
 * - `POST /videos`: JSON `{model, prompt, seconds, size}`, or multipart with an `input_reference`
 *   image (the start frame; OpenAI wants it at the video's size);
 * - `GET /videos/{id}`: `status` queued | in_progress | completed | failed, `progress` 0-100, `error`;
 * - `GET /videos/{id}/content`: the MP4, behind our key (so we download it here, not via a URL);
 * - `DELETE /videos/{id}`: the only call that stops a video. OpenAI documents it for completed or
 *   failed videos; on a running one it is best effort (the driver ignores its failure).
 */
export const VIDEO_MODELS = ['sora-2', 'sora-2-pro'] as const;

/** `seconds` values the API takes (strings on the wire). */
const SECONDS = [4, 8, 12] as const;
/**
 * Sizes derived from aspect_ratio: the 720p ones, which both models take; sora-2-pro's 1024x1792 and
 * 1792x1024 (billed higher) only through provider_options.openai.size. A square ratio is equally far
 * from both and gets portrait, the API's default.
 */
const SIZES = ['720x1280', '1280x720'] as const;

const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

/** The allowed clip length nearest to `duration` (ties go to the longer one), in seconds. */
export function soraSeconds(duration: number): number {
  let best: number = SECONDS[0];
  for (const seconds of SECONDS) {
    if (Math.abs(seconds - duration) <= Math.abs(best - duration)) best = seconds;
  }
  return best;
}

/** The clip length a request will be billed for: provider_options, else the rounded duration, else 4. */
export function requestedSeconds(input: RunInput): number {
  const seconds = Number(providerOptions(input.body, 'openai').seconds);
  if (Number.isFinite(seconds) && seconds > 0) return seconds;
  return typeof input.body.duration === 'number' ? soraSeconds(input.body.duration) : SECONDS[0];
}

interface Video {
  id: string;
  status: string;
  progress?: number | null;
  seconds?: string | number | null;
  error?: { code?: string; message?: string } | null;
}

export async function submitVideo(
  api: OpenAIApi,
  input: RunInput,
  context: SubmitContext,
): Promise<RemoteJobState> {
  const body = input.body;
  const files = (body.files as { url: string }[] | undefined) ?? [];
  if (files.length > 1)
    throw new ProviderError('provider_rejected', 'Sora takes one start image: send one file.');
  const fields: Record<string, unknown> = { model: input.offer.providerModelId };
  if (typeof body.prompt === 'string' && body.prompt.trim()) fields.prompt = body.prompt;
  if (typeof body.duration === 'number') fields.seconds = String(soraSeconds(body.duration));
  if (typeof body.aspect_ratio === 'string') fields.size = closestSize(SIZES, body.aspect_ratio);
  const options = providerOptions(body, 'openai');
  if (options.seconds !== undefined) options.seconds = String(options.seconds);
  Object.assign(fields, options);
  if (!fields.prompt) throw new ProviderError('provider_rejected', 'Sora needs a prompt.');

  let video: Video;
  if (files[0]) {
    const start = await inputFileOf(context, files[0].url);
    const form = streamedForm([filePart('input_reference', start), ...fieldParts(fields)], context.signal);
    await context.beforeSend();
    video = await sendingForm(form, () =>
      api.json<Video>('/videos', { method: 'POST', stream: form, signal: context.signal }),
    );
  } else {
    await context.beforeSend();
    video = await api.json<Video>('/videos', { method: 'POST', json: fields, signal: context.signal });
  }
  return stateOf(video);
}

export async function pollVideo(
  api: OpenAIApi,
  input: SubmittedInput,
  signal?: AbortSignal,
): Promise<RemoteJobState> {
  const id = encodeURIComponent(input.providerJobId);
  const video = await api.json<Video>(`/videos/${id}`, { signal });
  const state = stateOf(video);
  if (state.phase !== 'succeeded') return state;
  // Fetched by the driver when it finishes the job, not on every poll (a refresh polls too).
  const download = async (downloadSignal: AbortSignal) => {
    const content = await api.fetch(`/videos/${id}/content`, {
      headers: { accept: 'application/binary' },
      signal: downloadSignal,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
    return Buffer.from(await content.arrayBuffer());
  };
  const seconds = Number(video.seconds);
  return {
    ...state,
    outputs: [{ fetch: download, mediaType: 'video/mp4', name: 'video.mp4' }],
    billedUnits: { seconds: Number.isFinite(seconds) && seconds > 0 ? seconds : requestedSeconds(input) },
  };
}

export async function cancelVideo(api: OpenAIApi, input: SubmittedInput): Promise<void> {
  await api.fetch(`/videos/${encodeURIComponent(input.providerJobId)}`, { method: 'DELETE' });
}

const PHASES: Record<string, RemoteJobState['phase']> = {
  queued: 'queued',
  in_progress: 'running',
  completed: 'succeeded',
  failed: 'failed',
};

function stateOf(video: Video): RemoteJobState {
  if (!video.id) throw new ProviderError('provider_error', `${OPENAI} answered a video without an id.`);
  const progress = typeof video.progress === 'number' ? Math.min(1, Math.max(0, video.progress / 100)) : null;
  return {
    providerJobId: video.id,
    providerStatus: video.status,
    phase: PHASES[video.status] ?? 'running',
    progress,
    message: null,
    error: video.error?.message ?? video.error?.code,
    // A video refused by moderation fails with its code (https://platform.openai.com/docs/guides/video-generation).
    ...(video.error?.code && MODERATION_CODES.includes(video.error.code)
      ? { errorCode: 'content_policy_violation' as const }
      : {}),
  };
}
