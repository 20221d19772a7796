import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { apiErrorFrom } from '../client/api-error.ts';
import type { Client } from '../client/create-client.ts';
import type { FileRecord } from '../contract/files.ts';
import { UPLOAD_MAX_BYTES } from '../contract/values.ts';
import type { Context } from './context.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { bar, formatBytes } from './output.ts';

export interface UploadResult {
  file: FileRecord;
  /** True when the server already had these bytes: nothing was sent. */
  deduplicated: boolean;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's bytes as a stream that reports how much has been read (sent). */
function streamWithProgress(file: string, size: number, onProgress: (sent: number) => void): ReadableStream {
  let sent = 0;
  const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  stream.on('data', (chunk) => {
    sent += chunk.length;
    onProgress(Math.min(sent, size));
  });
  return Readable.toWeb(stream) as ReadableStream;
}

/**
 * Uploads a local file the way the console does (spec 4.5): hash it, ask for a session with the hash
 * (a file the team already has is answered at once and nothing is sent), then PUT the bytes. When the
 * session's storage URL is the API itself, the bytes go through the proxy URL, which also registers the
 * file; a bucket's presigned URL gets them directly, then the file is registered with an import.
 */
export async function uploadPath(
  ctx: Context,
  client: Client,
  file: string,
  options: { folder?: string } = {},
): Promise<UploadResult> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new CliError(`No such file: ${file}.`, EXIT.refused);
  }
  if (!stat.isFile()) throw new CliError(`${file} is not a file.`, EXIT.refused);
  if (stat.size === 0) throw new CliError(`${file} is empty: there is nothing to upload.`, EXIT.refused);
  if (stat.size > UPLOAD_MAX_BYTES) {
    throw new CliError(`${file} is ${formatBytes(stat.size)}; files can be at most 200 MB.`, EXIT.refused);
  }
  const name = path.basename(file).slice(0, 255) || 'upload';
  const headers = options.folder ? { 'x-workspace-id': options.folder } : undefined;
  const hash = await sha256Of(file);
  const session = await client.createUploadSession({
    ...(headers ? { headers } : {}),
    body: { filename: name, size: stat.size, hash },
  });
  if (session.deduplicated) {
    ctx.output.note(`${name}: already uploaded (same bytes as ${session.file.id}), nothing sent.`);
    return { file: session.file, deduplicated: true };
  }

  const label = `Uploading ${name} (${formatBytes(stat.size)})`;
  const onProgress = (sent: number) => ctx.output.progress(`${label} ${bar(sent / stat.size)}`);
  const key = await ctx.apiKey();
  const direct = new URL(session.upload_url, ctx.root);
  const viaApi = direct.origin === new URL(ctx.root).origin;
  const target = viaApi ? new URL(session.proxy_url, ctx.root).href : direct.href;
  const response = await ctx.fetch(target, {
    method: 'PUT',
    headers: {
      ...session.headers,
      'content-length': String(stat.size),
      ...(viaApi && key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: streamWithProgress(file, stat.size, onProgress),
    duplex: 'half',
  } as RequestInit);
  ctx.output.progressDone();
  if (!response.ok) throw await apiErrorFrom(response);
  if (viaApi) {
    const answer = (await response.json()) as { file: FileRecord };
    // Another upload of the same bytes registered first: the server answers that file, not a second copy.
    return { file: answer.file, deduplicated: answer.file.id !== session.session_id };
  }
  const registered = await client.importFile({
    ...(headers ? { headers } : {}),
    body: { url: session.public_url, name },
  });
  return { file: registered, deduplicated: registered.id !== session.session_id };
}
