import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkModelInput } from '../../domain/catalog/model-input.ts';
import { SKETCH_FORMATS, type SketchFormat } from '../../domain/catalog/models/local-options.ts';
import { MODELS } from '../../domain/catalog/models.ts';
import { sniffMediaType } from '../../domain/files/sniff-media-type.ts';
import { AppError } from '../../errors.ts';
import { contextOf, filesOf, frameColour, inputFor, probeOutput } from './engine-test-support.ts';
import { testFfmpeg } from './ffmpeg-test-media.ts';
import { edit, sketch, upscale } from './image-engine.ts';
import { sketchJob, upscaleJob } from './image-jobs.ts';
import { createMotionI2vJob } from './video-motion.ts';

/** What each format's file starts with, and what sharp calls it when it reads it back. */
const EXPECTED: Record<SketchFormat, { mediaType: string; name: string; sharpFormat: string }> = {
  png: { mediaType: 'image/png', name: 'sketch.png', sharpFormat: 'png' },
  webp: { mediaType: 'image/webp', name: 'sketch.webp', sharpFormat: 'webp' },
  // libheif reads AVIF; sharp names the container heif and the codec av1.
  avif: { mediaType: 'image/avif', name: 'sketch.avif', sharpFormat: 'heif' },
  jpeg: { mediaType: 'image/jpeg', name: 'sketch.jpg', sharpFormat: 'jpeg' },
};

function magicOf(data: Buffer): SketchFormat | 'unknown' {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (data.toString('latin1', 4, 12) === 'ftypavif') return 'avif';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  return 'unknown';
}

async function runSketchJob(localOptions: Record<string, unknown>) {
  const { context } = contextOf();
  const body = { model: 'local-sketch', prompt: 'a lighthouse at dusk', aspect_ratio: '16:9' };
  const result = await sketchJob(
    inputFor('sketch', { ...body, provider_options: { local: { seed: 3, ...localOptions } } }),
    context,
  );
  const output = result.outputs[0];
  if (output?.kind !== 'file') throw new Error('expected a file output');
  return output;
}

/** Mean absolute difference per channel value between two decoded pictures of the same size. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((d) => sharp(d).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}

describe('local-sketch output_format', () => {
  it.each(SKETCH_FORMATS)(
    '%s: a decodable picture of the asked size, with its media type and extension',
    async (format) => {
      const output = await runSketchJob({ output_format: format });
      expect(output.mediaType).toBe(EXPECTED[format].mediaType);
      expect(output.name).toBe(EXPECTED[format].name);
      expect(magicOf(output.data)).toBe(format);
      // The file store detects uploads by their bytes: it must agree with the declared type.
      expect(sniffMediaType(output.data.subarray(0, 512))).toBe(EXPECTED[format].mediaType);
      const metadata = await sharp(output.data).metadata();
      expect(metadata.format).toBe(EXPECTED[format].sharpFormat);
      expect([metadata.width, metadata.height]).toEqual([1024, 576]);
      const { info } = await sharp(output.data).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([1024, 576]);
    },
  );

  it('stays PNG without output_format, with the same pixels as an explicit png', async () => {
    const plain = await runSketchJob({});
    expect(plain).toMatchObject({ mediaType: 'image/png', name: 'sketch.png' });
    expect(magicOf(plain.data)).toBe('png');
    expect(plain.data.equals((await runSketchJob({ output_format: 'png' })).data)).toBe(true);
  });

  it('writes an opaque picture: no alpha channel in any format', async () => {
    for (const format of SKETCH_FORMATS) {
      const metadata = await sharp(await sketch({ prompt: 'p', seed: 1, longEdge: 96, format })).metadata();
      expect(metadata.hasAlpha, format).toBe(false);
    }
  });

  it.each(SKETCH_FORMATS)(
    '%s: the same seed gives the same bytes, another seed another picture',
    async (format) => {
      const params = { prompt: 'a red fox in the snow', seed: 42, longEdge: 160, format };
      const first = await sketch(params);
      expect((await sketch({ ...params })).equals(first)).toBe(true);
      expect(await meanDifference(await sketch({ ...params, seed: 43 }), first)).toBeGreaterThan(5);
    },
  );

  it('keeps the lossy formats close to the lossless picture and far smaller', async () => {
    const params = { prompt: 'a harbour at dawn with boats', seed: 9, longEdge: 512 };
    const png = await sketch(params);
    for (const format of ['webp', 'avif', 'jpeg'] as const) {
      const lossy = await sketch({ ...params, format });
      expect(await meanDifference(lossy, png), format).toBeLessThan(3);
      // Flat artwork compresses well as PNG, so lossy formats save less than on gradients.
      expect(lossy.length, format).toBeLessThan(png.length / 3);
    }
  });

  it('keeps the XMP description in every format', async () => {
    for (const format of SKETCH_FORMATS) {
      const data = await sketch({ prompt: 'cats & dogs', seed: 5, longEdge: 64, format });
      const xmp = (await sharp(data).metadata()).xmp?.toString('utf8') ?? '';
      expect(xmp, format).toContain('Composed sketch (not a neural model), seed 5: cats &amp; dogs');
    }
  });

  it('refuses an unknown format with a 422 naming the field, and the catalog lists the choices', () => {
    const model = MODELS.find((m) => m.id === 'local-sketch')!;
    let error: unknown;
    try {
      checkModelInput(model, { prompt: 'x', provider_options: { local: { output_format: 'gif' } } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).details).toMatchObject({
      fields: [{ field: 'provider_options.local.output_format' }],
    });
    expect(() =>
      checkModelInput(model, { prompt: 'x', provider_options: { local: { output_format: 'avif' } } }),
    ).not.toThrow();
    const schema = model.offers[0]!.optionsSchema.properties as Record<string, { enum?: string[] }>;
    expect(schema.output_format?.enum).toEqual(['png', 'webp', 'avif', 'jpeg']);
  });
});

describe('the local tools that read images take every sketch format', () => {
  let dir: string;
  let tmpRoot: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sketch-formats-test-'));
    tmpRoot = path.join(dir, 'jobs');
    await mkdir(tmpRoot);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(SKETCH_FORMATS)('%s: edit and upscale read it', async (format) => {
    const source = await sketch({ prompt: 'a kite', seed: 2, longEdge: 128, aspectRatio: '2:1', format });
    const edited = await edit(source, [{ op: 'crop', left: 0, top: 0, width: 64, height: 32 }]);
    expect(await sharp(edited.data).metadata()).toMatchObject({ width: 64, height: 32 });
    const upscaled = await upscale(source, 2);
    expect(await sharp(upscaled.data).metadata()).toMatchObject({ width: 256, height: 128 });
  });

  it('local-upscale writes output_format when asked, else the input format', async () => {
    const source = await sketch({ prompt: 'a kite', seed: 2, longEdge: 96, format: 'webp' });
    const file = path.join(dir, 'upscale-source.webp');
    await writeFile(file, source);
    const run = async (local: Record<string, unknown>) => {
      const { context } = contextOf();
      const result = await upscaleJob(
        inputFor('upscale', { model: 'local-upscale', files: filesOf(file), provider_options: { local } }),
        context,
      );
      const output = result.outputs[0];
      if (output?.kind !== 'file') throw new Error('expected a file output');
      return output;
    };
    const kept = await run({ factor: 2 });
    expect(kept).toMatchObject({ mediaType: 'image/webp', name: 'upscaled-2x.webp' });
    const avif = await run({ factor: 2, output_format: 'avif' });
    expect(avif).toMatchObject({ mediaType: 'image/avif', name: 'upscaled-2x.avif' });
    expect(magicOf(avif.data)).toBe('avif');
    expect(await sharp(avif.data).metadata()).toMatchObject({ width: 192, height: 192 });
    const model = MODELS.find((m) => m.id === 'local-upscale')!;
    const files = [{ url: 'https://example.com/a.png' }];
    expect(() =>
      checkModelInput(model, { files, provider_options: { local: { output_format: 'bmp' } } }),
    ).toThrow(AppError);
    // Video upscaling has no such option.
    const video = MODELS.find((m) => m.id === 'local-video-upscale')!;
    expect(Object.keys(video.offers[0]!.optionsSchema.properties ?? {})).toEqual(['factor']);
  });

  it('local-edit converts to AVIF with a format step', async () => {
    const source = await sketch({ prompt: 'a kite', seed: 2, longEdge: 64 });
    const avif = await edit(source, [{ op: 'format', to: 'avif' }]);
    expect(avif.mediaType).toBe('image/avif');
    expect(magicOf(avif.data)).toBe('avif');
    expect(await meanDifference(avif.data, source)).toBeLessThan(4);
  });

  it.each(['webp', 'avif'] as const)(
    '%s: local-motion-i2v moves over it as a start frame',
    async (format) => {
      const red = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#dc1414' } })
        [format]()
        .toBuffer();
      const file = path.join(dir, `red.${format}`);
      await writeFile(file, red);
      const { context } = contextOf();
      const job = createMotionI2vJob({ binary: testFfmpeg, tmpRoot });
      const result = await job(
        inputFor('motion-i2v', {
          model: 'local-motion-i2v',
          files: filesOf(file),
          duration: 0.5,
          provider_options: { local: { fps: 10 } },
        }),
        context,
      );
      const output = result.outputs[0];
      if (output?.kind !== 'file') throw new Error('expected a file output');
      const probed = await probeOutput(dir, output.name, output.data);
      expect(probed.video).toMatchObject({ codec_name: 'h264', nb_frames: '5' });
      const colour = await frameColour(probed.file, 0.2);
      expect(colour.r).toBeGreaterThan(180);
      expect(colour.g).toBeLessThan(60);
      expect(await readdir(tmpRoot)).toEqual([]);
    },
  );
});
