import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, isBlobKey } from './blob-store.ts';
import { LocalDiskStore } from './local-disk-store.ts';

let dir: string;
let root: string;
let store: LocalDiskStore;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-blobs-'));
  root = path.join(dir, 'data', 'blobs');
  store = new LocalDiskStore(root);
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const read = async (key: string, range?: { start: number; end: number }) =>
  buffer(await store.createReadStream(key, range));

describe('LocalDiskStore', () => {
  it('creates its directory on the first write only', async () => {
    expect(await store.stat('files/ab/x')).toBeNull();
    await expect(fs.stat(root)).rejects.toThrow();
    await store.put('files/ab/x', Buffer.from('hello'), 'text/plain');
    expect((await fs.stat(root)).isDirectory()).toBe(true);
  });

  it('pings without making its directory, and fails when the nearest directory is a file', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(fs.stat(root)).rejects.toThrow();
    await fs.writeFile(path.join(dir, 'data'), 'not a directory');
    await expect(store.ping()).rejects.toThrow();
  });

  it('stores a buffer and reports its size and sha256', async () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    const stored = await store.put('files/ab/fox', data, 'text/plain');
    expect(stored).toEqual({ size: data.length, sha256: sha(data) });
    expect(stored.sha256).toBe('d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592');
    expect(await store.stat('files/ab/fox')).toEqual({ size: data.length });
    expect(await read('files/ab/fox')).toEqual(data);
  });

  it('stores a stream of several chunks', async () => {
    const chunks = [Buffer.alloc(70_000, 1), Buffer.alloc(3, 2), Buffer.alloc(100_000, 3)];
    const all = Buffer.concat(chunks);
    const stored = await store.put('files/cd/stream.bin', Readable.from(chunks), 'application/octet-stream');
    expect(stored).toEqual({ size: all.length, sha256: sha(all) });
    expect((await read('files/cd/stream.bin')).equals(all)).toBe(true);
  });

  it('reads inclusive byte ranges', async () => {
    await store.put('k', Buffer.from('0123456789abcdef'), 'text/plain');
    expect((await read('k', { start: 0, end: 9 })).toString()).toBe('0123456789');
    expect((await read('k', { start: 10, end: 15 })).toString()).toBe('abcdef');
    expect((await read('k', { start: 5, end: 5 })).toString()).toBe('5');
  });

  it('replaces a blob whole, and leaves no temporary files behind', async () => {
    await store.put('files/ab/x', Buffer.from('first version'), 'text/plain');
    await store.put('files/ab/x', Buffer.from('second'), 'text/plain');
    expect((await read('files/ab/x')).toString()).toBe('second');
    expect(await fs.readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('keeps no partial blob when the source stream fails', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('source broke');
    }
    await expect(store.put('files/ab/broken', Readable.from(failing()), 'text/plain')).rejects.toThrow(
      'source broke',
    );
    expect(await store.stat('files/ab/broken')).toBeNull();
    expect(await fs.readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('answers a missing blob with null from stat and BlobNotFoundError from createReadStream', async () => {
    expect(await store.stat('files/zz/none')).toBeNull();
    await expect(store.createReadStream('files/zz/none')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('deletes, and deleting a missing blob is fine', async () => {
    await store.put('a', Buffer.from('x'), 'text/plain');
    await store.delete('a');
    expect(await store.stat('a')).toBeNull();
    await expect(store.delete('a')).resolves.toBeUndefined();
  });

  const traversal = [
    '../escape',
    'files/../../escape',
    '/etc/passwd',
    'files/./x',
    '.tmp/x',
    '..',
    '.',
    '',
    'a\\..\\b',
    'files//x',
    'files/x/',
    'a/b/c/d/e',
    'a\0b',
    '%2e%2e/x',
  ];

  it.each(traversal)('refuses the key %j for every operation', async (key) => {
    expect(isBlobKey(key)).toBe(false);
    await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Refused blob key/);
    await expect(store.stat(key)).rejects.toThrow(/Refused blob key/);
    await expect(store.createReadStream(key)).rejects.toThrow(/Refused blob key/);
    await expect(store.delete(key)).rejects.toThrow(/Refused blob key/);
    // Nothing was written outside (or inside) the root.
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('accepts the keys the server makes', () => {
    for (const key of ['files/ab/abcdefghijklmnopqrstuvwxyz', 'thumbnails/q2/q2xyz.webp', 'k', 'a/b/c/d']) {
      expect(isBlobKey(key), key).toBe(true);
    }
  });
});
