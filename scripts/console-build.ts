import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the console is built from: if any of these is newer than dist/index.html, the build is stale. */
const INPUTS = [
  'index.html',
  'vite.config.ts',
  'scripts/precompress-assets.ts',
  'package.json',
  'public',
  'src/web',
  'src/client',
  'src/contract',
];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** True when dist/ is missing or older than any console source. */
export function consoleBuildIsStale(root: string, distDir = path.join(root, 'dist')): boolean {
  const built = fs.statSync(path.join(distDir, 'index.html'), { throwIfNoEntry: false });
  if (!built) return true;
  return INPUTS.some((input) => newestMtime(path.join(root, input)) > built.mtimeMs);
}

/** Builds the console with Vite when it is missing or stale; returns whether it built. */
export function ensureConsoleBuild(root: string): boolean {
  if (!consoleBuildIsStale(root)) return false;
  process.stdout.write('Building the console (missing or older than its sources)...\n');
  const vite = path.join(root, 'node_modules', '.bin', 'vite');
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the console build failed (vite exited with ${result.status})`);
  return true;
}
