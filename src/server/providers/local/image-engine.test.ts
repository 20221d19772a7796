import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_STYLES } from '../../domain/presets/image-styles.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import { edit, escapeXml, sketch, sketchDimensions, upscale } from './image-engine.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A test picture: left half red, right half blue, so crops and rotations can be checked by colour. */
async function twoColour(width: number, height: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const image = sharp({ create: { width, height, channels: 3, background: '#ff0000' } }).composite([
    {
      input: { create: { width: width - half, height, channels: 3, background: '#0000ff' } },
      left: half,
      top: 0,
    },
  ]);
  // Composite output has an alpha channel: go through PNG once more to drop it.
  const opaque = sharp(await image.png().toBuffer()).removeAlpha();
  return format === 'png' ? opaque.png().toBuffer() : opaque.jpeg().toBuffer();
}

async function pixel(data: Buffer, x: number, y: number): Promise<number[]> {
  const { data: raw, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...raw.subarray(at, at + info.channels)];
}

describe('sketchDimensions', () => {
  it.each([
    ['16:9', 1024, 1024, 576],
    ['1:1', 1024, 1024, 1024],
    ['9:16', 1024, 576, 1024],
    ['4:3', 800, 800, 600],
    ['2.39:1', 1024, 1024, 428],
  ])('%s at %i → %ix%i', (ratio, longEdge, width, height) => {
    expect(sketchDimensions(ratio, longEdge)).toEqual({ width, height });
  });

  it.each(['16x9', '0:1', '1:0', '-1:2', '', '17:1', '1:20', 'a:b'])('refuses %j', (ratio) => {
    expect(() => sketchDimensions(ratio, 1024)).toThrow(EngineInputError);
  });

  it('refuses a long edge out of range', () => {
    expect(() => sketchDimensions('1:1', 32)).toThrow(EngineInputError);
    expect(() => sketchDimensions('1:1', 5000)).toThrow(EngineInputError);
  });
});

describe('sketch', () => {
  it.each([
    ['16:9', 1024, 576],
    ['1:1', 1024, 1024],
    ['9:16', 576, 1024],
  ])('draws a %s PNG of %ix%i', async (aspectRatio, width, height) => {
    const png = await sketch({ prompt: 'a lighthouse at dusk', seed: 1, aspectRatio });
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const metadata = await sharp(png).metadata();
    expect(metadata.format).toBe('png');
    expect([metadata.width, metadata.height]).toEqual([width, height]);
  });

  it('honours longEdge and defaults to a square', async () => {
    const metadata = await sharp(await sketch({ prompt: 'x', seed: 0, longEdge: 256 })).metadata();
    expect([metadata.width, metadata.height]).toEqual([256, 256]);
  });

  it('is deterministic: same prompt and seed, identical bytes', async () => {
    const params = { prompt: 'a red fox in the snow', seed: 42, aspectRatio: '4:3', longEdge: 320 };
    const a = await sketch(params);
    const b = await sketch({ ...params });
    expect(a.equals(b)).toBe(true);
  });

  it('draws a different picture for another prompt or another seed', async () => {
    const base = { prompt: 'a red fox in the snow', seed: 42, longEdge: 128 };
    const pixels = async (params: typeof base) =>
      (
        await sharp(await sketch(params))
          .raw()
          .toBuffer()
      ).toString('base64');
    const reference = await pixels(base);
    expect(await pixels({ ...base, prompt: 'a blue whale in the sea' })).not.toBe(reference);
    expect(await pixels({ ...base, seed: 43 })).not.toBe(reference);
  });

  it('draws in a style: ink sketch has no colour and a light ground, neon noir a dark one', async () => {
    const styleOf = (slug: string) => IMAGE_STYLES.find((s) => s.slug === slug)!.sketch;
    const base = { prompt: 'a red fox in the snow', seed: 42, longEdge: 128 };
    const stats = async (png: Buffer) => sharp(png).stats();
    const plain = await stats(await sketch(base));
    const ink = await stats(await sketch({ ...base, style: styleOf('ink-sketch') }));
    const neon = await stats(await sketch({ ...base, style: styleOf('neon-noir') }));
    // Grey: the three channels of every pixel are equal, so their means are.
    expect(ink.channels[0]!.mean).toBeCloseTo(ink.channels[2]!.mean, 5);
    expect(plain.channels[0]!.mean).not.toBeCloseTo(plain.channels[2]!.mean, 1);
    expect(ink.channels[1]!.mean).toBeGreaterThan(180);
    expect(neon.channels[1]!.mean).toBeLessThan(plain.channels[1]!.mean);
    expect(neon.channels[1]!.mean).toBeLessThan(60);
  });

  it('says what it is in XMP, with the prompt escaped', async () => {
    const png = await sketch({ prompt: 'cats & <dogs> "quoted"', seed: 5, longEdge: 64 });
    const xmp = (await sharp(png).metadata()).xmp?.toString('utf8') ?? '';
    expect(xmp).toContain(
      'Composed sketch (not a neural model), seed 5: cats &amp; &lt;dogs&gt; &quot;quoted&quot;',
    );
  });

  it('reports progress from 0 to 1', async () => {
    const seen: number[] = [];
    await sketch({ prompt: 'p', seed: 1, longEdge: 64 }, { onProgress: (f) => seen.push(f) });
    expect(seen.at(-1)).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('refuses a bad seed', async () => {
    await expect(sketch({ prompt: 'p', seed: -1 })).rejects.toThrow(EngineInputError);
    await expect(sketch({ prompt: 'p', seed: 1.5 })).rejects.toThrow(EngineInputError);
  });

  it('stops when aborted before it starts and between steps', async () => {
    const controller = new AbortController();
    controller.abort('stop');
    await expect(sketch({ prompt: 'p', seed: 1 }, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortError,
    );
    const late = new AbortController();
    const run = sketch(
      { prompt: 'p', seed: 1, longEdge: 64 },
      { signal: late.signal, onProgress: (f) => f >= 0.4 && late.abort() },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('escapeXml', () => {
  it('escapes markup and drops characters XML forbids', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0001\u0008ok\n`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;ok\n',
    );
  });
});

describe('edit', () => {
  it('resizes (cover by default, one side keeps the ratio)', async () => {
    const input = await twoColour(400, 200);
    const cover = await edit(input, [{ op: 'resize', width: 100, height: 100 }]);
    expect([cover.width, cover.height, cover.mediaType]).toEqual([100, 100, 'image/png']);
    const oneSide = await edit(input, [{ op: 'resize', width: 100 }]);
    expect([oneSide.width, oneSide.height]).toEqual([100, 50]);
    const meta = await sharp(oneSide.data).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([100, 50, 'png']);
  });

  it('contain pads with transparency', async () => {
    const out = await edit(await twoColour(400, 200), [
      { op: 'resize', width: 100, height: 100, fit: 'contain' },
    ]);
    expect(out.height).toBe(100);
    expect((await pixel(out.data, 50, 2))[3]).toBe(0);
    expect((await pixel(out.data, 10, 50))[3]).toBe(255);
    // Later steps keep the transparency.
    const grey = await edit(out.data, [{ op: 'grayscale' }]);
    expect((await pixel(grey.data, 50, 2))[3]).toBe(0);
  });

  it('crops the region asked for', async () => {
    const input = await twoColour(200, 100);
    const right = await edit(input, [{ op: 'crop', left: 120, top: 10, width: 50, height: 40 }]);
    expect([right.width, right.height]).toEqual([50, 40]);
    expect((await pixel(right.data, 25, 20)).slice(0, 3)).toEqual([0, 0, 255]);
    const left = await edit(input, [{ op: 'crop', left: 0, top: 0, width: 50, height: 40 }]);
    expect((await pixel(left.data, 25, 20)).slice(0, 3)).toEqual([255, 0, 0]);
  });

  it('refuses a crop outside the image', async () => {
    await expect(
      edit(await twoColour(200, 100), [{ op: 'crop', left: 180, top: 0, width: 50, height: 10 }]),
    ).rejects.toThrow(EngineInputError);
  });

  it('rotates by right angles', async () => {
    const out = await edit(await twoColour(200, 100), [{ op: 'rotate', degrees: 90 }]);
    expect([out.width, out.height]).toEqual([100, 200]);
    // Clockwise: the red left half ends up on top.
    expect((await pixel(out.data, 50, 20)).slice(0, 3)).toEqual([255, 0, 0]);
    expect((await pixel(out.data, 50, 180)).slice(0, 3)).toEqual([0, 0, 255]);
  });

  it('applies steps in the order given', async () => {
    const input = await twoColour(200, 100);
    const cropThenRotate = await edit(input, [
      { op: 'crop', left: 0, top: 0, width: 100, height: 50 },
      { op: 'rotate', degrees: 90 },
    ]);
    expect([cropThenRotate.width, cropThenRotate.height]).toEqual([50, 100]);
    const rotateThenCrop = await edit(input, [
      { op: 'rotate', degrees: 90 },
      { op: 'crop', left: 0, top: 0, width: 100, height: 50 },
    ]);
    expect([rotateThenCrop.width, rotateThenCrop.height]).toEqual([100, 50]);
  });

  it('converts formats, greys, blurs and tints', async () => {
    const input = await twoColour(64, 32);
    const jpeg = await edit(input, [{ op: 'grayscale' }, { op: 'format', to: 'jpeg', quality: 80 }]);
    expect(jpeg.mediaType).toBe('image/jpeg');
    expect((await sharp(jpeg.data).metadata()).format).toBe('jpeg');
    const [r, g, b] = await pixel(jpeg.data, 5, 5);
    expect(Math.abs(r! - g!)).toBeLessThanOrEqual(3);
    expect(Math.abs(g! - b!)).toBeLessThanOrEqual(3);

    const webp = await edit(input, [
      { op: 'blur', sigma: 2 },
      { op: 'format', to: 'webp' },
    ]);
    expect((await sharp(webp.data).metadata()).format).toBe('webp');

    const tinted = await edit(await twoColour(64, 32), [
      { op: 'grayscale' },
      { op: 'tint', color: '#00ff00' },
    ]);
    const [tr, tg, tb] = await pixel(tinted.data, 5, 5);
    expect(tg!).toBeGreaterThan(tr!);
    expect(tg!).toBeGreaterThan(tb!);
  });

  it('keeps a JPEG a JPEG unless told otherwise', async () => {
    const out = await edit(await twoColour(64, 32, 'jpeg'), [{ op: 'resize', width: 32 }]);
    expect(out.mediaType).toBe('image/jpeg');
    expect((await sharp(out.data).metadata()).format).toBe('jpeg');
  });

  it('refuses bad operations and unreadable input', async () => {
    const input = await twoColour(64, 32);
    await expect(edit(input, [])).rejects.toThrow(EngineInputError);
    await expect(edit(input, [{ op: 'resize' }])).rejects.toThrow(EngineInputError);
    await expect(edit(input, [{ op: 'tint', color: 'green' }])).rejects.toThrow(EngineInputError);
    await expect(edit(input, [{ op: 'resize', width: 9000 }])).rejects.toThrow(EngineInputError);
    await expect(edit(Buffer.from('not an image'), [{ op: 'grayscale' }])).rejects.toThrow(EngineInputError);
  });

  it('stops between steps when aborted', async () => {
    const controller = new AbortController();
    const messages: string[] = [];
    const run = edit(
      await twoColour(64, 32),
      [{ op: 'grayscale' }, { op: 'blur' }, { op: 'rotate', degrees: 90 }],
      {
        signal: controller.signal,
        onProgress: (_, message) => {
          messages.push(message);
          if (message === 'Applying blur') controller.abort();
        },
      },
    );
    await expect(run).rejects.toBeInstanceOf(AbortError);
    expect(messages).not.toContain('Applying rotate');
  });
});

describe('upscale', () => {
  it.each([2, 4] as const)('scales by %i with lanczos, keeping the format', async (factor) => {
    const out = await upscale(await twoColour(40, 30), factor);
    expect([out.width, out.height, out.mediaType]).toEqual([40 * factor, 30 * factor, 'image/png']);
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([40 * factor, 30 * factor, 'png']);
    expect(meta.hasAlpha).toBe(false);
  });

  it('refuses a file whose header reads but whose pixels do not, as bad input', async () => {
    const whole = await twoColour(40, 30);
    const truncated = whole.subarray(0, whole.length - 40);
    await expect(upscale(truncated, 2)).rejects.toThrow(/could not be decoded/);
    await expect(upscale(truncated, 2)).rejects.toBeInstanceOf(EngineInputError);
    await expect(edit(truncated, [{ op: 'grayscale' }])).rejects.toBeInstanceOf(EngineInputError);
  });

  it('refuses other factors and results beyond 8192 px', async () => {
    const input = await twoColour(40, 30);
    await expect(upscale(input, 3 as 2)).rejects.toThrow(EngineInputError);
    await expect(upscale(await twoColour(3000, 10), 4)).rejects.toThrow(EngineInputError);
  });

  it('reports progress and honours an aborted signal', async () => {
    const seen: string[] = [];
    await upscale(await twoColour(20, 20), 2, { onProgress: (_, m) => seen.push(m) });
    expect(seen).toEqual(['Reading the image', 'Upscaling 2x', 'Encoding PNG', 'Done']);
    await expect(upscale(await twoColour(20, 20), 2, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      AbortError,
    );
  });
});
