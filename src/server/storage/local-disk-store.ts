import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertBlobKey,
  BlobNotFoundError,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from './blob-store.ts';

/**
 * Blobs as files under one directory (DATA_DIR/blobs). The directory is made on the first write, so a
 * server that never stores a file never touches the disk. Writes go to a temporary file in the same
 * directory tree and are renamed into place: a reader sees the old blob or the new one, never half of one.
 */
export class LocalDiskStore implements BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key; refuses any key that is not one of ours or that would leave the root. */
  private fileOf(key: string): string {
    assertBlobKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(`${this.root}${path.sep}`))
      throw new Error(`Refused blob key ${JSON.stringify(key)}`);
    return file;
  }

  async put(key: string, data: Buffer | Readable, _contentType: string): Promise<StoredBlob> {
    const file = this.fileOf(key);
    // Temporary files live under `.tmp`, a name no key can take (segments never start with a dot).
    const tmpDir = path.join(this.root, '.tmp');
    await fs.mkdir(tmpDir, { recursive: true });
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const sink = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    try {
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
      await pipeline(source, measure, sink);
      await fs.rename(tmp, file);
    } catch (error) {
      // A source that fails at once (a body cut off at its limit) can reject the pipeline before the file
      // is even open; the stream then creates it after all, so wait for it to close before removing it.
      if (!sink.closed) await once(sink, 'close').catch(() => {});
      await fs.rm(tmp, { force: true });
      throw error;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const found = await fs.stat(this.fileOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
      throw error;
    });
    return found?.isFile() ? { size: found.size } : null;
  }

  async createReadStream(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.fileOf(key);
    // Opening first turns a missing blob into a rejected promise rather than a stream that errors later.
    const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new BlobNotFoundError(key);
      throw error;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  localPath(key: string): string {
    return this.fileOf(key);
  }

  /**
   * The root, or the nearest path above it that exists (the root is made on the first write), is a
   * directory this process may write in: else the first write would fail.
   */
  async ping(): Promise<void> {
    let dir = this.root;
    for (;;) {
      const found = await fs.stat(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (found) {
        if (!found.isDirectory()) throw new Error(`${dir} is not a directory`);
        break;
      }
      dir = path.dirname(dir);
    }
    await fs.access(dir, fs.constants.W_OK);
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.fileOf(key), { force: true });
  }
}
