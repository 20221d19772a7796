import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeIssues } from '../../../contract/errors.ts';
import { FfmpegRequest } from '../../../contract/generation.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { readableByFfmpeg } from './avif-input.ts';
import { checkAborted, EngineInputError } from './engine-run.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';
import {
  containerOf,
  type Media,
  mediaTypeOf,
  outputName,
  planConcat,
  planLastFrame,
  planStep,
} from './ffmpeg-operations.ts';
import { probeMedia } from './ffmpeg-probe.ts';
import type { LocalEngine } from './local-provider.ts';

export interface FfmpegJobOptions {
  /** The ffmpeg binary (resolved on first use): see ffmpegPath. */
  binary: () => string;
  /** Where each job's temp dir is made (default the system's). */
  tmpRoot?: string;
}

/** Share of the progress bar for reading the inputs; the operations share the rest up to 0.95. */
const READING = 0.1;
const WORK_END = 0.95;

/**
 * The local `ffmpeg` engine: `POST /ffmpeg` bodies (declared operations, never a command line). Reads the
 * input files into a fresh temp dir (always removed), runs each operation as one ffmpeg process (argument
 * arrays, no shell) on the previous result, and returns the last result. A leading `concat` joins every
 * file; otherwise the operations apply to `files[0]`.
 */
export function createFfmpegJob(options: FfmpegJobOptions): LocalEngine {
  const binaryOf = options.binary;
  return async (input, context): Promise<RunResult> => {
    const parsed = FfmpegRequest.safeParse(input.body);
    if (!parsed.success) throw new EngineInputError(describeIssues(parsed.error.issues).message);
    const { files, operations } = parsed.data;
    const binary = binaryOf();
    checkAborted(context.signal);
    const dir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'ffmpeg-job-'));
    try {
      const wanted = operations[0]?.op === 'concat' ? files : files.slice(0, 1);
      const inputs: Media[] = [];
      for (const [index, file] of wanted.entries()) {
        checkAborted(context.signal);
        const label = `files[${index}]`;
        context.progress((READING * index) / wanted.length, `Reading ${label}`);
        const { body } = await context.readInput(file.url);
        const local = path.join(dir, `input-${index}`);
        await writeFile(local, await readableByFfmpeg(body));
        const info = await probeMedia(binary, local, label, context.signal);
        inputs.push({ file: local, label, info, container: containerOf(info) });
      }

      let current = inputs[0]!;
      const share = (WORK_END - READING) / operations.length;
      for (const [index, op] of operations.entries()) {
        checkAborted(context.signal);
        const where = `operations[${index}] (${op.op})`;
        const base = READING + share * index;
        const message = `${op.op} (${index + 1} of ${operations.length})`;
        context.progress(base, message);
        const step = withPrefix(where, () =>
          op.op === 'concat' ? planConcat(inputs) : planStep(op, current),
        );
        const output = path.join(dir, `step-${index}.${step.container}`);
        const labels: Array<[string, string]> = [
          ...inputs.map((item): [string, string] => [item.file, item.label]),
          [current.file, current.label],
          [output, 'the output'],
          [`${dir}${path.sep}`, ''],
        ];
        const run = (args: string[], expectedSeconds: number | null) =>
          runFfmpeg(binary, [...args, output], {
            signal: context.signal,
            expectedSeconds,
            onProgress: (fraction) => context.progress(base + share * fraction, message),
            describe: (line) =>
              `${where}: ${labels.reduce((text, [from, to]) => text.replaceAll(from, to), line)}`,
          });
        await run(step.args, step.expectedSeconds);
        if (!(await written(output)) && op.op === 'thumbnail') {
          // Asked between the last frame and the end of the container: the last frame it is.
          await run(planLastFrame(current).args, null);
        }
        if (!(await written(output))) {
          throw new EngineInputError(
            `${where}: ffmpeg wrote nothing (is the time past the end of the media?).`,
          );
        }
        const label = `the result of operations[${index}]`;
        const info = await probeMedia(binary, output, label, context.signal);
        current = { file: output, label, info, container: step.container };
      }

      const last = operations.at(-1)!.op;
      const data = await readFile(current.file);
      context.progress(WORK_END, 'Done');
      return {
        outputs: [
          {
            kind: 'file',
            data,
            mediaType: mediaTypeOf(current.container, current.info.video !== null),
            name: outputName(last, current.container),
          },
        ],
        billedUnits: { jobs: 1 },
        providerStatus: 'succeeded',
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

async function written(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => null);
  return info !== null && info.size > 0;
}

/** Planning errors name the operation they come from. */
function withPrefix<T>(where: string, plan: () => T): T {
  try {
    return plan();
  } catch (error) {
    if (error instanceof EngineInputError) throw new EngineInputError(`${where}: ${error.message}`);
    throw error;
  }
}

/** The engine registered for the catalog offer `local` / `ffmpeg`. */
