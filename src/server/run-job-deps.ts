import type { ToolKey } from '../contract/common.ts';
import { storeFile, toOutputEntry } from './domain/files/files.ts';
import { parseMediaUrl } from './domain/files/media-urls.ts';
import { jobPrompt, outputFileName } from './domain/files/output-name.ts';
import { readOwnFile } from './domain/files/read-own-file.ts';
import { inputUrls } from './domain/jobs/create-job.ts';
import { ownInputFile, remoteInputFile } from './domain/jobs/input-files.ts';
import type { RunJobDeps } from './domain/jobs/run-job.ts';
import { AppError } from './errors.ts';
import { safeFetch } from './net/safe-fetch.ts';
import { urlPolicyFromConfig } from './net/url-policy.ts';
import type { Services } from './services.ts';

/** Inputs larger than the spec's file limit are refused while reading. */
const MAX_INPUT_BYTES = 209_715_200;

/** The URLs a job read: its input files, and the layers of a render (so a render's lineage shows its sources). */
function readUrls(body: Record<string, unknown>): string[] {
  const layers = Array.isArray(body.layers) ? (body.layers as Array<{ url?: unknown }>) : [];
  return [
    ...inputUrls(body),
    ...layers.flatMap((layer) => (typeof layer.url === 'string' ? [layer.url] : [])),
  ];
}

/** What a generated file keeps of the job that made it: shown on its card, matched by search. */
function generatedBy(row: { input: Record<string, unknown>; model: string; tool: ToolKey }) {
  const prompt = jobPrompt(row.input);
  return { ...(prompt ? { prompt } : {}), model: row.model, tool: row.tool };
}

/** What the job worker needs from storage, the network and webhooks, wired from the services. */
export function runJobDeps(s: Services): RunJobDeps {
  const policy = urlPolicyFromConfig(s.config);
  return {
    providers: s.providers,
    onTerminal: s.onJobTerminal,
    async readInput(_row, url, limits) {
      // Our own files come from storage; anything else through the guarded fetcher (checked at connect time).
      if (parseMediaUrl(s.config.PUBLIC_URL, url)) {
        const own = await readOwnFile(s, url);
        if (!own) throw new AppError('invalid_request', `There is no file at ${url}.`, { status: 422 });
        return { body: own.body, contentType: own.contentType };
      }
      const maxBytes = Math.min(limits?.maxBytes ?? MAX_INPUT_BYTES, MAX_INPUT_BYTES);
      const fetched = await safeFetch(url, { policy, maxBytes, timeoutMs: 120_000 });
      return { body: fetched.body, contentType: fetched.contentType ?? 'application/octet-stream' };
    },
    async inputFile(_row, url) {
      if (parseMediaUrl(s.config.PUBLIC_URL, url)) {
        const own = await ownInputFile(s, url);
        if (!own) throw new AppError('invalid_request', `There is no file at ${url}.`, { status: 422 });
        return own;
      }
      return remoteInputFile(url, policy);
    },
    async download(url) {
      const fetched = await safeFetch(url, { policy, maxBytes: MAX_INPUT_BYTES, timeoutMs: 300_000 });
      return { body: fetched.body, contentType: fetched.contentType ?? 'application/octet-stream' };
    },
    async discardOutputs(row, fileIds) {
      if (!fileIds.length) return;
      // Never an output of the job (it ended without them), so nothing points at them: rows and bytes go.
      const { rows } = await s.db.query<{ storage_key: string; thumbnail_key: string | null }>(
        `DELETE FROM files WHERE id = ANY($1) AND job_id = $2 AND origin = 'job' RETURNING storage_key, thumbnail_key`,
        [fileIds, row.id],
      );
      const keys = rows
        .flatMap((r) => [r.storage_key, r.thumbnail_key])
        .filter((k): k is string => Boolean(k));
      await Promise.all(keys.map((key) => s.blobs.delete(key).catch(() => {})));
    },
    async storeOutput(row, output) {
      const inputFileIds = readUrls(row.input)
        .map((url) => parseMediaUrl(s.config.PUBLIC_URL, url)?.fileId)
        .filter((id): id is string => Boolean(id));
      const file = await storeFile(s, {
        teamId: row.team_id,
        folderId: row.folder_id,
        name: outputFileName(row, output.name),
        mediaType: output.mediaType,
        data: output.data,
        origin: 'job',
        jobId: row.id,
        inputFileIds,
        metadata: { ...generatedBy(row) },
      });
      return toOutputEntry(file);
    },
  };
}
