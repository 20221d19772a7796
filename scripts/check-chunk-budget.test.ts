import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_BUDGET_BYTES, chunkSizes, heavyConsoleStart } from './check-chunk-budget.ts';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'check-chunk-budget.ts');
const tsx = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');

let dist: string;
let appText: string;
beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-chunk-budget-'));
  const assets = path.join(dist, 'assets');
  await fs.mkdir(assets);
  // react-dom: its build sibling is what the server sends, so its size is what counts (random bytes, over
  // 60 KB, although the file itself compresses to almost nothing).
  await fs.writeFile(path.join(assets, 'react-dom-abc123.js'), 'export const a = 1;'.repeat(2_000));
  await fs.writeFile(path.join(assets, 'react-dom-abc123.js.br'), randomBytes(70_000));
  // app: no sibling, so the server compresses it itself at brotli 9.
  appText = Array.from({ length: 2_000 }, (_, i) => `export const value${i} = ${i * 7};`).join('\n');
  await fs.writeFile(path.join(assets, 'app-def456.js'), appText);
  // router: a sibling older than its file (a build made over it) is not sent, nor weighed.
  await fs.writeFile(path.join(assets, 'router-0a1b2c.js.br'), randomBytes(80_000));
  await fs.utimes(path.join(assets, 'router-0a1b2c.js.br'), new Date(2020, 0, 1), new Date(2020, 0, 1));
  await fs.writeFile(path.join(assets, 'router-0a1b2c.js'), 'export const r = 2;'.repeat(100));
  // Other kinds of file are not chunks.
  await fs.writeFile(path.join(assets, 'app-def456.css'), randomBytes(90_000).toString('base64'));
});
afterAll(() => fs.rm(dist, { recursive: true, force: true }));

const brotli = (text: string, quality: number) =>
  zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }).length;

describe('the chunk budget', () => {
  it("weighs each built JavaScript file as the server sends it: the build's fresh .br, else brotli 9", () => {
    const sizes = chunkSizes(dist);
    expect(sizes.map((chunk) => [chunk.file, chunk.from])).toEqual([
      ['react-dom-abc123.js', 'build'],
      ['app-def456.js', 'server'],
      ['router-0a1b2c.js', 'server'],
    ]);
    expect(sizes[0]!.served).toBe(70_000);
    expect(sizes[1]!.served).toBe(brotli(appText, 9));
    expect(sizes[2]!.served).toBe(brotli('export const r = 2;'.repeat(100), 9));
    expect(sizes[0]!.served).toBeGreaterThan(CHUNK_BUDGET_BYTES);
    expect(sizes[1]!.served).toBeLessThan(CHUNK_BUDGET_BYTES);
  });

  it('fails the build check naming the file over 60 KB as served, and passes a build within it', async () => {
    expect(CHUNK_BUDGET_BYTES).toBe(60_000);
    const failed = await run(tsx, [script, dist]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(
      /1 file over 60\.0 KB brotli, as served:\n {2}react-dom-abc123\.js 70\.0 KB/,
    );

    await fs.rm(path.join(dist, 'assets', 'react-dom-abc123.js'));
    const { stdout } = await run(tsx, [script, dist]);
    expect(stdout).toMatch(/^chunk budget: 2 files, the largest app-def456\.js \d+\.\d KB/);
  });
});

describe("the console's start", () => {
  let built: string;
  const write = (file: string, text: string) => fs.writeFile(path.join(built, 'assets', file), text);
  beforeAll(async () => {
    built = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-console-start-'));
    await fs.mkdir(path.join(built, 'assets'));
    // Minified as the build writes it: static imports, re-exports and side-effect imports count, a dynamic
    // import (a page's chunk, loaded on demand) does not.
    await write('console-aaa111.js', 'import{a as e}from"./routes-bbb222.js";import"./react-ccc333.js";');
    await write(
      'routes-bbb222.js',
      'export{t}from"./d3-ddd444.js";const p=()=>import("./recharts-eee555.js");',
    );
    await write('react-ccc333.js', 'export const r=1;');
    await write('d3-ddd444.js', 'export const t=1;');
    await write('recharts-eee555.js', 'export const c=1;');
    await write('schemas-fff666.js', 'export const s={_zod:{def:1}};');
    await write('page-ggg777.js', 'import"./schemas-fff666.js";');
  });
  afterAll(() => fs.rm(built, { recursive: true, force: true }));

  it('names each chart chunk or zod chunk a signed-in first load imports before a page, with its import chain', async () => {
    expect(heavyConsoleStart(built)).toEqual(['console-aaa111.js → routes-bbb222.js → d3-ddd444.js']);

    await write('react-ccc333.js', 'import"./schemas-fff666.js";export const r=1;');
    expect(heavyConsoleStart(built)).toEqual([
      'console-aaa111.js → routes-bbb222.js → d3-ddd444.js',
      'console-aaa111.js → react-ccc333.js → schemas-fff666.js',
    ]);
    const failed = await run(tsx, [script, built]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('console-aaa111.js → react-ccc333.js → schemas-fff666.js');

    await write('routes-bbb222.js', 'const p=()=>import("./recharts-eee555.js");');
    await write('react-ccc333.js', 'export const r=1;');
    expect(heavyConsoleStart(built)).toEqual([]);
    await run(tsx, [script, built]);
  });
});
