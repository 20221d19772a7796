import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Services } from '../../services.ts';

/**
 * Runs `work` on a path to the blob, for tools that need a seekable file (ffmpeg, sharp): the store's own
 * file when it keeps blobs on this disk, else a temporary copy, removed afterwards.
 */
export async function withLocalCopy<T>(
  s: Services,
  key: string,
  work: (file: string) => Promise<T>,
): Promise<T> {
  const local = s.blobs.localPath?.(key);
  if (local) return work(local);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-blob-'));
  try {
    const file = path.join(dir, randomBytes(6).toString('hex'));
    await pipeline(await s.blobs.createReadStream(key), createWriteStream(file));
    return await work(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
