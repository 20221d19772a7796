import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/db/embedded.ts';
import { currentServerBundle } from './server-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('npm start (node scripts/start.mjs)', () => {
  it('runs the server from its bundle in plain node: /healthz answers 200 and SIGTERM stops it cleanly', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-start-'));
    const staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-start-static-'));
    dirs.push(dataDir, staticDir);
    await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
    const port = await freePort();
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        // A console build of its own: the start leaves dist/ alone.
        STATIC_DIR: staticDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let status = 0;
      for (let i = 0; i < 1200 && status !== 200 && child.exitCode === null; i++) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (response) => response.status,
          () => 0,
        );
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status, output).toBe(200);
      // The server runs in the process npm start made: no TypeScript loader in between.
      const ready = output.match(/"msg":"ready".*?"pid":(\d+)/);
      expect(Number(ready?.[1])).toBe(child.pid);
      expect(output).toMatch(/"steps":\{[^}]*"database":\d+/);
      expect(output).not.toContain('Building the console');
      expect(await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())).toContain(
        '<title>console</title>',
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 300_000);
});

describe('npm run build:server (node scripts/start.mjs --build-only)', () => {
  it('builds the bundle ahead of time, prints its entry and exits; the speech worker beside it runs in plain node', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/start.mjs', '--build-only'], {
      cwd: root,
    });
    const entry = path.join(root, stdout.trim());
    expect(stdout.trim()).toMatch(/^\.build\/server\/[^/]+\/start\.js$/);
    expect(currentServerBundle(root)).toBe(entry);
    // What the speech thread starts from the bundle (speech-thread.ts): no TypeScript loader involved.
    // (execArgv: [], or the worker would inherit `--input-type`, which refuses a file.)
    const check = [
      "import { Worker } from 'node:worker_threads';",
      `const worker = new Worker(new URL('./speech-worker.js', ${JSON.stringify(pathToFileURL(entry).href)}), { execArgv: [] });`,
      "worker.on('message', (reply) => { console.log(reply.wav ? 'wav ' + reply.wav.byteLength : reply.error); process.exit(0); });",
      "worker.postMessage({ engine: 'flite', voice: 'slt', text: 'Hello there.', rate: 1 });",
    ].join('\n');
    const spoken = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', check], {
      cwd: root,
    });
    expect(spoken.stdout).toMatch(/^wav \d{4,}/);
  }, 120_000);
});
