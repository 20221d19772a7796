import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/*
 * No JavaScript file of the console's build may weigh more than 60 KB gzip -9 (issue #14; KB are 1,000
 * bytes). Byte counts do not depend on the machine, so this is a gate after every build in `npm test`, not
 * a benchmark: a library upgrade that grows a chunk past it (React 19's react-dom client is one module over it, see
 * docs/performance.md, "Why React 18") fails here with the file named.
 */

export const CHUNK_BUDGET_BYTES = 60_000;

export interface ChunkSize {
  file: string;
  gzip: number;
}

/** Each built JavaScript file (dist/assets) with its size compressed alone at gzip -9, largest first. */
export function chunkSizes(dist: string): ChunkSize[] {
  const assets = path.join(dist, 'assets');
  return readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(assets, file)), { level: 9 }).length }))
    .sort((a, b) => b.gzip - a.gzip);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
  const sizes = chunkSizes(dist);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const over = sizes.filter((chunk) => chunk.gzip > CHUNK_BUDGET_BYTES);
  if (over.length > 0) {
    console.error(`chunk budget: ${files(over.length)} over ${kb(CHUNK_BUDGET_BYTES)} gzip -9:`);
    for (const chunk of over) console.error(`  ${chunk.file} ${kb(chunk.gzip)}`);
    process.exit(1);
  }
  const largest = sizes[0];
  console.log(
    `chunk budget: ${files(sizes.length)}, the largest ${largest ? `${largest.file} ${kb(largest.gzip)}` : 'none'} (≤ ${kb(CHUNK_BUDGET_BYTES)} gzip -9)`,
  );
}
