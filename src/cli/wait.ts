import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiErrorFrom } from '../client/api-error.ts';
import type { Client } from '../client/create-client.ts';
import type { Job, JobStatusView } from '../contract/jobs.ts';
import type { Context } from './context.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { bar } from './output.ts';

type Output = Job['output'];
type OutputEntry = NonNullable<Output>['outputs'][number];

/** Polls a job until it ends, drawing its progress on a terminal. Polls quickly at first, then every 2 s. */
export async function waitForJob(ctx: Context, client: Client, jobId: string): Promise<JobStatusView> {
  let delay = 250;
  for (;;) {
    const status = await client.getJobStatus({ params: { id: jobId } });
    const fraction = status.progress ?? 0;
    const message = status.progress_message ?? status.provider_status ?? '';
    ctx.output.progress(`${jobId} ${status.status.padEnd(10)} ${bar(fraction)} ${message}`);
    if (status.terminal) {
      ctx.output.progressDone();
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 2000);
  }
}

/**
 * A failed or cancelled job is an error of its own kind (exit 5), with the job's own message; with
 * `--json` the error carries the job, so stdout still holds a single JSON document.
 */
export function failureOf(job: Pick<Job, 'id' | 'status' | 'error'>): CliError | null {
  if (job.status === 'completed') return null;
  const reason = job.error ? `${job.error.message} [${job.error.code}]` : job.status;
  return new CliError(`Job ${job.id} ${job.status}: ${reason}`, EXIT.jobFailed, { job });
}

function extensionOf(entry: OutputEntry): string {
  const fromUrl = entry.url ? path.extname(new URL(entry.url).pathname) : '';
  if (fromUrl) return fromUrl;
  const subtype = entry.media_type.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  return `.${subtype === 'jpeg' ? 'jpg' : subtype === 'mpeg' ? 'mp3' : subtype}`;
}

/**
 * Where each output goes: `--out` names the file (with several outputs, `name-2.ext` and so on),
 * `--output-dir` takes the job's id and the output's extension.
 */
export function outputPaths(
  jobId: string,
  entries: OutputEntry[],
  options: { out?: string; outputDir?: string },
): string[] {
  return entries.map((entry, i) => {
    if (options.out) {
      if (entries.length === 1 || i === 0) return options.out;
      const ext = path.extname(options.out);
      return `${options.out.slice(0, options.out.length - ext.length)}-${i + 1}${ext}`;
    }
    const name = `${jobId}${entries.length > 1 ? `-${i + 1}` : ''}${extensionOf(entry)}`;
    return path.join(options.outputDir ?? '.', name);
  });
}

/**
 * Saves a job's outputs: files are downloaded from their URLs, inline results (a transcript, a video
 * analysis report) are written as JSON. Returns the paths written.
 */
export async function saveOutputs(
  ctx: Context,
  jobId: string,
  output: Output,
  options: { out?: string; outputDir?: string },
): Promise<string[]> {
  const entries = output?.outputs ?? [];
  if (!entries.length) return [];
  const targets = outputPaths(jobId, entries, options);
  for (const [i, entry] of entries.entries()) {
    const target = targets[i]!;
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    if (!entry.url) {
      fs.writeFileSync(target, `${JSON.stringify(entry.data ?? null, null, 2)}\n`);
      continue;
    }
    await downloadUrl(ctx, new URL(entry.url, ctx.root).href, target);
  }
  return targets;
}

export async function downloadUrl(ctx: Context, url: string, target: string): Promise<void> {
  let response: Response;
  try {
    response = await ctx.fetch(url);
  } catch (cause) {
    throw new CliError(`Could not download ${url}: ${(cause as Error).message}`, EXIT.network);
  }
  if (!response.ok || !response.body) throw await apiErrorFrom(response);
  // Written beside the target and renamed, so an interrupted download never leaves a partial file there.
  const partial = `${target}.part`;
  await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(partial));
  fs.renameSync(partial, target);
}
