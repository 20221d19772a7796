import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/server/config.ts';
import { MODELS } from '../src/server/domain/catalog/models.ts';
import type { RunContext } from '../src/server/domain/jobs/provider.ts';
import { createLocalEngines } from '../src/server/providers/local/engines.ts';
import { runFfmpeg } from '../src/server/providers/local/ffmpeg-binary.ts';
import { testFfmpeg } from '../src/server/providers/local/ffmpeg-test-media.ts';

/*
 * Time per local engine for a standard input, in this process (no HTTP, no queue): what a job of that
 * model costs in wall time on this machine. Each engine runs `rounds` times; the median is reported.
 */

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * CPU time used so far, in ms: this process (sharp's threads included) and its finished children
 * (ffmpeg, the recognisers), which Linux counts in /proc/self/stat (cutime, cstime; 100 ticks a second).
 */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // Not Linux: children are not counted.
  }
  return (own.user + own.system) / 1000 + children;
}

/** A 10 s clip with a title card, a cut at 5 s and a tone: enough for every stage of the analysis. */
async function analysisClip(dir: string): Promise<string> {
  const card = (text: string, background: string) =>
    sharp({ create: { width: 640, height: 360, channels: 3, background } })
      .composite([
        {
          input: Buffer.from(
            `<svg width="640" height="360"><text x="320" y="190" font-size="48" font-family="DejaVu Sans" text-anchor="middle" fill="black">${text}</text></svg>`,
          ),
        },
      ])
      .png()
      .toFile(path.join(dir, `${background.slice(1)}.png`));
  await card('QUARTERLY REPORT', '#ffffff');
  await card('THANK YOU', '#ffd54f');
  const clip = path.join(dir, 'analysis.mp4');
  await runFfmpeg(testFfmpeg(), [
    ...['-loop', '1', '-t', '5', '-i', path.join(dir, 'ffffff.png')],
    ...['-loop', '1', '-t', '5', '-i', path.join(dir, 'ffd54f.png')],
    ...['-f', 'lavfi', '-i', 'sine=frequency=300:duration=10'],
    ...['-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0,fps=25,format=yuv420p[v]'],
    ...['-map', '[v]', '-map', '2:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', clip],
  ]);
  return clip;
}

/** The standard speech input: 200 characters of plain English. */
const sentence = (
  'Media Console runs every tool offline on one machine. This sentence is read aloud to measure how ' +
  'long the local speech engines take for a standard input of exactly two hundred characters of plain text.'
).slice(0, 200);

const MOTION_PLAIN = '10 s video (local-motion, 16:9, a fox in a field)';
const MOTION_SNOW = '10 s video (local-motion, 16:9, the same while snowing)';

export async function benchEngines(rounds = 3) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mc-bench-engines-'));
  const config = loadConfig({ DATA_DIR: dir });
  const engines = createLocalEngines(config);
  const clip = await analysisClip(dir);
  const context = (): RunContext => ({
    signal: new AbortController().signal,
    progress: () => {},
    readInput: async (url) => ({
      body: await readFile(new URL(url).pathname),
      contentType: 'application/octet-stream',
    }),
  });
  const run = async (model: string, body: Record<string, unknown>) => {
    const definition = MODELS.find((m) => m.id === model)!;
    const offer = definition.offers[0]!;
    const engine = engines.get(offer.providerModelId);
    if (!engine) return null;
    return engine({ model: definition, offer, body: { model, ...body } }, context());
  };

  // The speech made here is the transcription input, so the recogniser hears real words.
  const speech = await run('local-flite', { text: sentence });
  const speechFile = path.join(dir, 'speech.bin');
  const first = speech?.outputs[0];
  if (first?.kind === 'file') await writeFile(speechFile, first.data);

  const cases: Array<{ label: string; model: string; body: Record<string, unknown> }> = [
    {
      label: 'image sketch (local-sketch, 1:1)',
      model: 'local-sketch',
      body: { prompt: 'a lighthouse at dusk', options: { cache: false } },
    },
    {
      label: 'image sketch (local-sketch, 1:1, output_format webp)',
      model: 'local-sketch',
      body: {
        prompt: 'a lighthouse at dusk',
        provider_options: { local: { output_format: 'webp' } },
        options: { cache: false },
      },
    },
    {
      label: '5 s video (local-motion, 16:9)',
      model: 'local-motion',
      body: { prompt: 'a harbour at dawn', duration: 5, aspect_ratio: '16:9' },
    },
    // The same scene with and without falling snow, side by side: the snow's cost as a ratio.
    {
      label: MOTION_PLAIN,
      model: 'local-motion',
      body: { prompt: 'a red fox in a field', duration: 10, aspect_ratio: '16:9', seed: 1 },
    },
    {
      label: MOTION_SNOW,
      model: 'local-motion',
      body: { prompt: 'a red fox in a field while snowing', duration: 10, aspect_ratio: '16:9', seed: 1 },
    },
    {
      label: `${sentence.length} characters of speech (local-flite)`,
      model: 'local-flite',
      body: { text: sentence },
    },
    {
      label: `${sentence.length} characters of speech (local-espeak)`,
      model: 'local-espeak',
      body: { text: sentence },
    },
    {
      label: '30 s music (local-procedural-music)',
      model: 'local-procedural-music',
      body: { prompt: 'calm piano, slow', duration: 30 },
    },
    {
      label: '10 s analysis (video-analyze)',
      model: 'video-analyze',
      body: { video_url: `https://in.test${clip}` },
    },
    {
      label: 'transcription of the speech above (local-pocketsphinx)',
      model: 'local-pocketsphinx',
      body: { audio_url: `https://in.test${speechFile}`, language: 'en' },
    },
    {
      label: 'ffmpeg resize of the 10 s clip to 320 wide',
      model: 'ffmpeg',
      body: { files: [{ url: `https://in.test${clip}` }], operations: [{ op: 'resize', width: 320 }] },
    },
  ];
  const results: Array<{
    label: string;
    medianMs: number | null;
    runsMs: number[];
    /** Median CPU time of a run (this process and its ffmpeg children). */
    cpuMs: number | null;
    error?: string;
  }> = [];
  // BENCH_ENGINES=local-motion runs only the cases whose label contains that text.
  const wanted = process.env.BENCH_ENGINES;
  for (const c of cases.filter((c) => !wanted || c.label.includes(wanted))) {
    const runsMs: number[] = [];
    const cpus: number[] = [];
    let error: string | undefined;
    for (let i = 0; i < rounds && !error; i++) {
      const started = performance.now();
      const cpuBefore = cpuMs();
      try {
        if (!(await run(c.model, c.body))) error = 'engine not built';
        else {
          runsMs.push(Math.round(performance.now() - started));
          cpus.push(Math.round(cpuMs() - cpuBefore));
        }
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    results.push({
      label: c.label,
      medianMs: runsMs.length ? median(runsMs) : null,
      runsMs,
      cpuMs: cpus.length ? median(cpus) : null,
      ...(error ? { error } : {}),
    });
  }
  await rm(dir, { recursive: true, force: true });
  const cpuOf = (label: string) => results.find((r) => r.label === label)?.cpuMs ?? null;
  const [plain, snow] = [cpuOf(MOTION_PLAIN), cpuOf(MOTION_SNOW)];
  // CPU rather than wall time: the machine is shared, and the snow's cost is work, not waiting.
  const snowCpuRatio = plain && snow ? Number((snow / plain).toFixed(2)) : null;
  return { rounds, results, snowCpuRatio };
}
