import type { RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { inputFileOf } from './native-input.ts';
import { OPENAI, type OpenAIApi } from './openai-api.ts';
import type { RemoteJobState, RemoteOutput, SubmitContext } from './remote-provider.ts';
import { FinishedJobs, finishedState, sendOnce } from './sync-jobs.ts';
import {
  checkFileSize,
  type FormPart,
  fieldParts,
  filePart,
  providerOptions,
  sendingForm,
  streamedForm,
} from './upload-form.ts';

/**
 * OpenAI Images API (synchronous):
 * - `POST /images/generations` (JSON) without files;
 * - `POST /images/edits` (multipart: `image[]` for the GPT image models, one `image` for dall-e-2,
 *   `prompt`, optional `mask`) with files; dall-e-3 cannot edit.
 * GPT image models always answer `data[].b64_json`; the dall-e models answer `url` unless asked for
 * `response_format: b64_json`, which we ask for (their URLs expire after an hour). gpt-image-1 and the
 * dall-e models are shut down (the catalog keeps them retired); their rows stay for jobs made before.
 * Edits take the images as multipart files only (no URL form in the reference), streamed from storage.
 * A prompt refused by OpenAI's moderation (`moderation_blocked`, or dall-e's `content_policy_violation`)
 * fails the job with `content_policy_violation` (openai-api.ts).
 */
export const IMAGE_MODELS = ['gpt-image-2', 'gpt-image-1', 'dall-e-3', 'dall-e-2'] as const;

/** gpt-image-*: b64_json answers, `image[]` uploads, output_format. */
const isGptImage = (model: string) => model.startsWith('gpt-image-');

/** Sizes each model takes, in order of preference when two are equally close to the asked ratio. */
const SIZES: Record<string, readonly string[]> = {
  // gpt-image-2 takes flexible sizes; these three are the ones every GPT image model takes.
  'gpt-image-2': ['1024x1024', '1536x1024', '1024x1536'],
  'gpt-image-1': ['1024x1024', '1536x1024', '1024x1536'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
  // Squares only; 256x256 and 512x512 through provider_options.openai.size.
  'dall-e-2': ['1024x1024'],
};

const TIMEOUT_MS = 5 * 60_000; // a GPT image model at high quality can take minutes

/*
 * Edit input limits, from the `image` and `mask` fields of "Create image edit"
 * (https://platform.openai.com/docs/api-reference/images/createEdit, as openai-node's ImageEditParams
 * carries it): GPT image models take up to 16 png/webp/jpg images, each under 50 MB; dall-e-2 one square
 * PNG under 4 MB; a mask is a PNG under 4 MB.
 */
const MB = 1024 * 1024;
const GPT_IMAGE_EDIT = { maxImages: 16, maxBytes: 50 * MB };
const DALLE2_EDIT = { maxImages: 1, maxBytes: 4 * MB };
const MASK_MAX_BYTES = 4 * MB;

/** The model's size closest in shape to `w:h` (the least distance between log aspect ratios). */
export function closestSize(sizes: readonly string[], aspectRatio: string): string {
  const [w, h] = aspectRatio.split(':').map(Number);
  const wanted = Math.log((w || 1) / (h || 1));
  let best = sizes[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const size of sizes) {
    const [sw, sh] = size.split('x').map(Number);
    const distance = Math.abs(Math.log(sw! / sh!) - wanted);
    if (distance < bestDistance - 1e-9) {
      best = size;
      bestDistance = distance;
    }
  }
  return best;
}

/** Images a request asks for: `n` of provider_options (1 by default). */
export function requestedImages(input: RunInput): number {
  const n = Number(providerOptions(input.body, 'openai').n ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

interface ImagesResponse {
  created?: number;
  data?: { b64_json?: string; url?: string }[];
  output_format?: string;
}

export async function submitImages(
  api: OpenAIApi,
  input: RunInput,
  context: SubmitContext,
): Promise<RemoteJobState> {
  const model = input.offer.providerModelId;
  const body = input.body;
  const options = providerOptions(body, 'openai');
  const files = (body.files as { url: string }[] | undefined) ?? [];
  const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : '';
  if (model === 'dall-e-3' && (options.n ?? 1) !== 1) {
    throw new ProviderError('provider_rejected', 'dall-e-3 makes one image per request: n must be 1.');
  }

  const fields: Record<string, unknown> = { model, prompt };
  if (typeof body.aspect_ratio === 'string') fields.size = closestSize(SIZES[model]!, body.aspect_ratio);
  if (!isGptImage(model)) fields.response_format = 'b64_json';
  const { mask, ...rest } = options;
  Object.assign(fields, rest);

  let answer: ImagesResponse;
  if (files.length === 0) {
    if (!prompt)
      throw new ProviderError('provider_rejected', `${model} needs a prompt to generate an image.`);
    answer = await sendOnce(OPENAI, context, () =>
      api.json<ImagesResponse>('/images/generations', {
        method: 'POST',
        json: fields,
        signal: context.signal,
        timeoutMs: TIMEOUT_MS,
      }),
    );
  } else {
    answer = await editImages(api, model, fields, files, mask, context);
  }

  const outputs = imageOutputs(answer, model, options);
  if (outputs.length === 0) throw new ProviderError('provider_error', `${OPENAI} answered without an image.`);
  const id = FinishedJobs.newId('openai-img');
  return finishedState(id, outputs, { images: outputs.length });
}

async function editImages(
  api: OpenAIApi,
  model: string,
  fields: Record<string, unknown>,
  files: { url: string }[],
  mask: unknown,
  context: SubmitContext,
): Promise<ImagesResponse> {
  if (model === 'dall-e-3') {
    throw new ProviderError('provider_rejected', 'dall-e-3 cannot edit images: use gpt-image-2.');
  }
  if (model === 'dall-e-2' && files.length > 1) {
    throw new ProviderError('provider_rejected', 'dall-e-2 edits one image: send one file.');
  }
  if (!fields.prompt) throw new ProviderError('provider_rejected', `${model} edits need a prompt.`);
  const limits = model === 'dall-e-2' ? DALLE2_EDIT : GPT_IMAGE_EDIT;
  if (files.length > limits.maxImages) {
    throw new ProviderError('provider_rejected', `${model} edits at most ${limits.maxImages} images.`);
  }
  const parts: FormPart[] = [];
  for (const [index, source] of files.entries()) {
    const file = await inputFileOf(context, source.url);
    checkFileSize(file, limits.maxBytes, `Image ${index + 1}`);
    parts.push(filePart(model === 'dall-e-2' ? 'image' : 'image[]', file, limits.maxBytes));
  }
  if (typeof mask === 'string') {
    const file = await inputFileOf(context, mask);
    checkFileSize(file, MASK_MAX_BYTES, 'The mask');
    parts.push(filePart('mask', file, MASK_MAX_BYTES));
  }
  const form = streamedForm([...parts, ...fieldParts(fields)], context.signal);
  return sendOnce(OPENAI, context, () =>
    sendingForm(form, () =>
      api.json<ImagesResponse>('/images/edits', {
        method: 'POST',
        stream: form,
        signal: context.signal,
        timeoutMs: TIMEOUT_MS,
      }),
    ),
  );
}

function imageOutputs(
  answer: ImagesResponse,
  model: string,
  options: Record<string, unknown>,
): RemoteOutput[] {
  const format = isGptImage(model) ? String(answer.output_format ?? options.output_format ?? 'png') : 'png';
  const mediaType = `image/${format === 'jpg' ? 'jpeg' : format}`;
  const extension = format === 'jpeg' ? 'jpg' : format;
  const outputs: RemoteOutput[] = [];
  for (const [index, image] of (answer.data ?? []).entries()) {
    const name = `image-${index + 1}.${extension}`;
    if (image.b64_json) outputs.push({ data: Buffer.from(image.b64_json, 'base64'), mediaType, name });
    else if (image.url) outputs.push({ url: image.url, name }); // response_format: url set in provider_options
  }
  return outputs;
}
