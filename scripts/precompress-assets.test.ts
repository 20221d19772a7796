import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFile } from './precompress-assets.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-precompress-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe("the build's compressed siblings", () => {
  it('are brotli at quality 11 and gzip -9 of the file, each decompressing to it', async () => {
    const file = path.join(dir, 'app-1.js');
    const text = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i * 7};`).join('\n');
    await fs.writeFile(file, text);
    expect(await precompressFile(file)).toBe(true);
    const br = await fs.readFile(`${file}.br`);
    const gz = await fs.readFile(`${file}.gz`);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(text);
    expect(zlib.gunzipSync(gz).toString()).toBe(text);
    // Quality 11 (brotli's output is the same for the same input and settings).
    const quality11 = zlib.brotliCompressSync(text, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
    });
    expect(br.equals(quality11)).toBe(true);
    expect(gz.equals(zlib.gzipSync(text, { level: 9 }))).toBe(true);
  });

  it('are not made for small files or for files that are not text', async () => {
    const small = path.join(dir, 'tiny.js');
    await fs.writeFile(small, 'export {};');
    const picture = path.join(dir, 'logo.png');
    await fs.writeFile(picture, Buffer.alloc(4096, 7));
    expect(await precompressFile(small)).toBe(false);
    expect(await precompressFile(picture)).toBe(false);
    const made = (await fs.readdir(dir)).filter((name) => name.startsWith('tiny') || name.startsWith('logo'));
    expect(made.sort()).toEqual(['logo.png', 'tiny.js']);
  });
});
