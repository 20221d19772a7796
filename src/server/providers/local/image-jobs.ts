import type { EditOperation } from '../../domain/catalog/models/image-edit-operations.ts';
import { SKETCH_FORMATS, type SketchFormat } from '../../domain/catalog/models/local-options.ts';
import type { RunContext, RunInput, RunResult } from '../../domain/jobs/provider.ts';
import { imageStyleByPresetId } from '../../domain/presets/image-styles.ts';
import { EngineInputError } from './engine-run.ts';
import { edit, sketch, upscale } from './image-engine.ts';
import type { LocalEngine } from './local-provider.ts';
import { SKETCH_EXTENSIONS, SKETCH_MEDIA_TYPES } from './sketch-encoding.ts';

/** The request's `provider_options.local` (per-model fields, see GET /v2/tools/image?model=). */
function localOptions(body: Record<string, unknown>): Record<string, unknown> {
  const options = (body.provider_options as Record<string, Record<string, unknown>> | undefined)?.local;
  return options ?? {};
}

async function firstFile(input: RunInput, context: RunContext): Promise<Buffer> {
  const files = (input.body.files as Array<{ url: string }> | undefined) ?? [];
  if (!files[0]) throw new EngineInputError(`${input.model.id} needs a source image in files.`);
  context.progress(0.05, 'Reading the source image');
  return (await context.readInput(files[0].url)).body;
}

const extension = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
} as const;
const engineOptions = (context: RunContext) => ({ onProgress: context.progress, signal: context.signal });

/** local-sketch: a procedural picture from prompt, seed and aspect ratio. */
export const sketchJob: LocalEngine = async (input, context) => {
  const { seed, style, output_format } = localOptions(input.body);
  // Style and format were checked against the known ones when the request was validated.
  const drawing = typeof style === 'string' ? imageStyleByPresetId(style)?.sketch : undefined;
  const format: SketchFormat = SKETCH_FORMATS.find((f) => f === output_format) ?? 'png';
  const data = await sketch(
    {
      ...(drawing ? { style: drawing } : {}),
      format,
      prompt: typeof input.body.prompt === 'string' ? input.body.prompt : '',
      seed: typeof seed === 'number' ? seed : 0,
      aspectRatio: typeof input.body.aspect_ratio === 'string' ? input.body.aspect_ratio : '1:1',
    },
    engineOptions(context),
  );
  return {
    outputs: [
      {
        kind: 'file',
        data,
        mediaType: SKETCH_MEDIA_TYPES[format],
        name: `sketch.${SKETCH_EXTENSIONS[format]}`,
      },
    ],
    billedUnits: { images: 1 },
    providerStatus: 'succeeded',
  };
};

/** local-edit: `provider_options.local.operations` applied in order to `files[0]`. */
export const editJob: LocalEngine = async (input, context): Promise<RunResult> => {
  const operations = localOptions(input.body).operations as EditOperation[] | undefined;
  if (!operations) {
    throw new EngineInputError(
      'local-edit needs provider_options.local.operations, for example [{"op":"grayscale"}].',
    );
  }
  const image = await edit(await firstFile(input, context), operations, engineOptions(context));
  return {
    outputs: [
      {
        kind: 'file',
        data: image.data,
        mediaType: image.mediaType,
        name: `edited.${extension[image.mediaType]}`,
      },
    ],
    billedUnits: { images: 1 },
    providerStatus: 'succeeded',
  };
};

/** local-upscale: 2x (default) or 4x of `files[0]`, in `output_format` when given. */
export const upscaleJob: LocalEngine = async (input, context) => {
  const { factor: asked, output_format } = localOptions(input.body);
  const factor = asked === 4 ? 4 : 2;
  const format = SKETCH_FORMATS.find((f) => f === output_format);
  const image = await upscale(await firstFile(input, context), factor, engineOptions(context), format);
  return {
    outputs: [
      {
        kind: 'file',
        data: image.data,
        mediaType: image.mediaType,
        name: `upscaled-${factor}x.${extension[image.mediaType]}`,
      },
    ],
    billedUnits: { images: 1 },
    providerStatus: 'succeeded',
  };
};
