import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SKETCH_FORMATS, type SketchFormat } from '../src/server/domain/catalog/models/local-options.ts';
import { sketchSvg } from '../src/server/domain/presets/sketch-svg.ts';
import { sketch } from '../src/server/providers/local/image-engine.ts';
import { encodeSketch } from '../src/server/providers/local/sketch-encoding.ts';

/*
 * What one 1024×1024 local-sketch costs, and what each output format costs against the PNG the engine
 * wrote before (RGBA, zlib level 6, sharp's defaults). In this process, no HTTP or queue. The machine is
 * shared and noisy, so every round runs old and new side by side, alternating which goes first, and the
 * figures are medians of the rounds; bytes are deterministic (same prompt and seed, same bytes).
 */

const EDGE = 1024;
/** Prompts the rounds cycle through (unstyled, so the old and the new engine draw the same picture). */
const SUBJECTS = ['a lighthouse at dusk', 'a red kite over the sea on a windy day', 'calm'];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Wall time, and this process's CPU time (libvips works on its own threads of this process): on a busy
 * machine the wall time includes waiting for a core, the CPU time is closer to the work itself.
 */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** The engine's output before #14: RGBA PNG at sharp's defaults. */
const oldSketch = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

/** Peak signal-to-noise ratio of a decoded output against the lossless pixels, in dB (99: identical). */
async function psnr(encoded: Buffer, reference: Buffer): Promise<number> {
  const decoded = await sharp(encoded).removeAlpha().toColourspace('srgb').raw().toBuffer();
  let squared = 0;
  for (let i = 0; i < reference.length; i++) {
    const d = decoded[i]! - reference[i]!;
    squared += d * d;
  }
  return squared === 0 ? 99 : round1(10 * Math.log10((255 * 255 * reference.length) / squared));
}

export interface FormatFigures {
  format: SketchFormat | 'png (old)';
  /** Median wall time of a whole sketch (compose, rasterise, encode). */
  medianMs: number;
  /** Median CPU time of the same. */
  medianCpuMs: number;
  /** Mean bytes over the subjects. */
  bytes: number;
  /** Worst PSNR over the subjects against the lossless rendering. */
  minPsnr: number;
}

export interface ImageEncodingFigures {
  rounds: number;
  /** Where the CPU time of the old 1024×1024 PNG goes: medians of the rounds. */
  stages: { composeMs: number; rasteriseMs: number; oldPngEncodeMs: number; newPngEncodeMs: number };
  formats: FormatFigures[];
  /** The new default PNG decodes to exactly the old one's colour pixels. */
  pngLossless: boolean;
}

export async function benchImageEncoding(rounds = 7): Promise<ImageEncodingFigures> {
  const variants: Array<FormatFigures['format']> = ['png (old)', ...SKETCH_FORMATS];
  const times = new Map(variants.map((v) => [v, [] as number[]]));
  const cpuTimes = new Map(variants.map((v) => [v, [] as number[]]));
  const stages = {
    compose: [] as number[],
    rasterise: [] as number[],
    oldPng: [] as number[],
    newPng: [] as number[],
  };
  for (let round = 0; round < rounds; round++) {
    const prompt = SUBJECTS[round % SUBJECTS.length]!;
    const seed = round;
    // Alternate the order so neither side always runs on a warm (or a cold) cache.
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const { ms, cpuMs } = await timed(() =>
        variant === 'png (old)'
          ? oldSketch(sketchSvg(prompt, seed, EDGE, EDGE))
          : sketch({ prompt, seed, longEdge: EDGE, format: variant }),
      );
      times.get(variant)!.push(ms);
      cpuTimes.get(variant)!.push(cpuMs);
    }
    const composed = await timed(async () => sketchSvg(prompt, seed, EDGE, EDGE));
    const raster = await timed(() =>
      sharp(Buffer.from(composed.value)).raw().toBuffer({ resolveWithObject: true }),
    );
    const { data, info } = raster.value;
    const rgba = () => sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } });
    const oldEncode = await timed(() => rgba().png().toBuffer());
    const newEncode = await timed(() => encodeSketch(rgba(), 'png').toBuffer());
    stages.compose.push(composed.cpuMs);
    stages.rasterise.push(raster.cpuMs);
    stages.oldPng.push(oldEncode.cpuMs);
    stages.newPng.push(newEncode.cpuMs);
  }

  // Bytes and fidelity: each subject once.
  const bytes = new Map(variants.map((v) => [v, [] as number[]]));
  const fidelity = new Map(variants.map((v) => [v, [] as number[]]));
  let pngLossless = true;
  for (const [seed, prompt] of SUBJECTS.entries()) {
    const svg = sketchSvg(prompt, seed, EDGE, EDGE);
    const reference = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
    for (const variant of variants) {
      const encoded =
        variant === 'png (old)'
          ? await oldSketch(svg)
          : await sketch({ prompt, seed, longEdge: EDGE, format: variant });
      bytes.get(variant)!.push(encoded.length);
      const quality = await psnr(encoded, reference);
      fidelity.get(variant)!.push(quality);
      if (variant === 'png' && quality !== 99) pngLossless = false;
    }
  }

  return {
    rounds,
    stages: {
      composeMs: round1(median(stages.compose)),
      rasteriseMs: round1(median(stages.rasterise)),
      oldPngEncodeMs: round1(median(stages.oldPng)),
      newPngEncodeMs: round1(median(stages.newPng)),
    },
    formats: variants.map((format) => {
      const sizes = bytes.get(format)!;
      return {
        format,
        medianMs: round1(median(times.get(format)!)),
        medianCpuMs: round1(median(cpuTimes.get(format)!)),
        bytes: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
        minPsnr: Math.min(...fidelity.get(format)!),
      };
    }),
    pngLossless,
  };
}

const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0).padStart(5)} KB`;
const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}×`.padStart(5);

/** One line per figure, each beside the old PNG it replaces. */
export function imageEncodingLines(figures: ImageEncodingFigures): string[] {
  const { stages } = figures;
  const old = figures.formats.find((f) => f.format === 'png (old)')!;
  return [
    `local-sketch ${EDGE}×${EDGE}, median of ${figures.rounds} rounds, old PNG and each format side by side:`,
    `  CPU of the old PNG: compose ${stages.composeMs} ms, rasterise ${stages.rasteriseMs} ms, encode ${stages.oldPngEncodeMs} ms; new PNG encode ${stages.newPngEncodeMs} ms (${ratio(stages.newPngEncodeMs, stages.oldPngEncodeMs)})`,
    `  ${'format'.padEnd(10)} ${'wall'.padStart(16)} ${'CPU'.padStart(16)} ${'bytes (mean)'.padStart(17)}  fidelity`,
    ...figures.formats.map(
      (f) =>
        `  ${f.format.padEnd(10)} ${ms(f.medianMs)} (${ratio(f.medianMs, old.medianMs)}) ${ms(f.medianCpuMs)} (${ratio(f.medianCpuMs, old.medianCpuMs)}) ${kb(f.bytes)} (${ratio(f.bytes, old.bytes)})  ${f.minPsnr === 99 ? 'lossless' : `PSNR ≥ ${f.minPsnr} dB`}`,
    ),
    `  new default PNG has the old pixels: ${figures.pngLossless ? 'yes' : 'NO'}`,
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rounds = process.env.BENCH_ROUNDS ? Number(process.env.BENCH_ROUNDS) : undefined;
  process.stdout.write(`${imageEncodingLines(await benchImageEncoding(rounds)).join('\n')}\n`);
}
