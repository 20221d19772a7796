import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_BUDGET_BYTES, chunkSizes } from './check-chunk-budget.ts';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'check-chunk-budget.ts');
const tsx = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');

let dist: string;
let large: string;
beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-chunk-budget-'));
  await fs.mkdir(path.join(dist, 'assets'));
  // Random bytes as base64 barely compress: 100,000 characters stay well over 60 KB gzipped.
  large = `export const blob = "${randomBytes(75_000).toString('base64')}";`;
  await fs.writeFile(path.join(dist, 'assets', 'react-dom-abc123.js'), large);
  await fs.writeFile(path.join(dist, 'assets', 'app-def456.js'), 'export const a = 1;'.repeat(2_000));
  // The build's compressed siblings and other kinds of file are not chunks.
  await fs.writeFile(path.join(dist, 'assets', 'react-dom-abc123.js.br'), randomBytes(90_000));
  await fs.writeFile(path.join(dist, 'assets', 'app-def456.css'), randomBytes(90_000).toString('base64'));
});
afterAll(() => fs.rm(dist, { recursive: true, force: true }));

describe('the chunk budget', () => {
  it('weighs each built JavaScript file alone at gzip -9, largest first', () => {
    const sizes = chunkSizes(dist);
    expect(sizes.map((chunk) => chunk.file)).toEqual(['react-dom-abc123.js', 'app-def456.js']);
    expect(sizes[0]!.gzip).toBe(gzipSync(large, { level: 9 }).length);
    expect(sizes[0]!.gzip).toBeGreaterThan(CHUNK_BUDGET_BYTES);
    expect(sizes[1]!.gzip).toBeLessThan(CHUNK_BUDGET_BYTES);
  });

  it('fails the build check naming the file over 60 KB, and passes a build within it', async () => {
    expect(CHUNK_BUDGET_BYTES).toBe(60_000);
    const failed = await run(tsx, [script, dist]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/1 file over 60\.0 KB gzip -9:\n {2}react-dom-abc123\.js \d+\.\d KB/);

    await fs.rm(path.join(dist, 'assets', 'react-dom-abc123.js'));
    const { stdout } = await run(tsx, [script, dist]);
    expect(stdout).toMatch(/^chunk budget: 1 file, the largest app-def456\.js \d+\.\d KB/);
  });
});
