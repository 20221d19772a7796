import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/*
 * No JavaScript file of the console's build may weigh more than 60 KB as the server sends it (issue #14,
 * measured as served since #28; KB are 1,000 bytes). Every browser the console supports takes brotli, and
 * the server sends a file's `.br` sibling, which the build writes at brotli 11
 * (scripts/precompress-assets.ts); without a fresh sibling it compresses the file itself at brotli 9
 * (src/server/http/static-files.ts), so that is what is weighed then. Byte counts do not depend on the
 * machine, so this is a gate after every build in `npm test`, not a benchmark: a library upgrade that grows
 * a chunk past it fails here with the file named.
 */

export const CHUNK_BUDGET_BYTES = 60_000;

/** The quality the server compresses at when a file has no fresh `.br` sibling (static-files.ts). */
const ON_THE_FLY_BROTLI_QUALITY = 9;

export interface ChunkSize {
  file: string;
  /** Bytes the server sends for it to a browser that accepts brotli. */
  served: number;
  /** Whether those are the build's brotli 11 sibling, or what the server would compress at first request. */
  from: 'build' | 'server';
}

/** What the server sends for `file`: its `.br` sibling when at least as new as the file (the server's rule). */
export function servedSize(file: string): Pick<ChunkSize, 'served' | 'from'> {
  const sibling = statSync(`${file}.br`, { throwIfNoEntry: false });
  if (sibling?.isFile() && sibling.mtimeMs >= statSync(file).mtimeMs)
    return { served: sibling.size, from: 'build' };
  const packed = zlib.brotliCompressSync(readFileSync(file), {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ON_THE_FLY_BROTLI_QUALITY },
  });
  return { served: packed.length, from: 'server' };
}

/** Each built JavaScript file (dist/assets) with the bytes the server sends for it, largest first. */
export function chunkSizes(dist: string): ChunkSize[] {
  const assets = path.join(dist, 'assets');
  return readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, ...servedSize(path.join(assets, file)) }))
    .sort((a, b) => b.served - a.served);
}

/**
 * The chunks of the analytics charts (vite.config.ts names them): only the analytics page loads them.
 * zod is told by its own marker (`_zod`, on every schema of zod 4), whatever chunk it lands in.
 */
const CHART_CHUNK = /^(?:recharts|recharts-core|d3|chart-state|chart-utils)-[\w-]+\.js$/;
const ZOD_MARKER = '_zod';

/** `import{a as b}from"./x.js"`, `import"./x.js"`, `export{c}from"./x.js"` in built code; not `import("./x.js")`. */
const BUILT_STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']\.\/([^"']+\.js)["']/g;

/**
 * What a signed-in first load runs before any page's own chunk: the console's chunk (`console-<hash>.js`,
 * src/web/console.tsx with the router and every route's options and loaders) and all it imports
 * statically, each with the first file that imports it.
 */
export function consoleStartFiles(dist: string): Map<string, string | null> {
  const assets = path.join(dist, 'assets');
  const start = readdirSync(assets).find((file) => /^console-[\w-]+\.js$/.test(file));
  const importedBy = new Map<string, string | null>();
  if (!start) return importedBy;
  const pending: Array<[string, string | null]> = [[start, null]];
  while (pending.length > 0) {
    const [file, by] = pending.shift()!;
    if (importedBy.has(file)) continue;
    importedBy.set(file, by);
    for (const [, next] of readFileSync(path.join(assets, file), 'utf8').matchAll(BUILT_STATIC_IMPORT))
      pending.push([next!, file]);
  }
  return importedBy;
}

/**
 * Files of the console's start that hold the analytics charts or zod, each with the chain of imports that
 * brings it in. A route's options import only what they run: a loader that imports a helper from a page's
 * file takes that page (for analytics: recharts, d3 and zod, about 140 KB) into every signed-in first load.
 */
export function heavyConsoleStart(dist: string): string[] {
  const importedBy = consoleStartFiles(dist);
  const chain = (file: string) => {
    const files = [file];
    for (let by = importedBy.get(file); by; by = importedBy.get(by)) files.unshift(by);
    return files.join(' → ');
  };
  return [...importedBy.keys()]
    .filter(
      (file) =>
        CHART_CHUNK.test(file) || readFileSync(path.join(dist, 'assets', file), 'utf8').includes(ZOD_MARKER),
    )
    .map(chain);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
  const sizes = chunkSizes(dist);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const over = sizes.filter((chunk) => chunk.served > CHUNK_BUDGET_BYTES);
  const unit = 'brotli, as served';
  if (over.length > 0) {
    console.error(`chunk budget: ${files(over.length)} over ${kb(CHUNK_BUDGET_BYTES)} ${unit}:`);
    for (const chunk of over) console.error(`  ${chunk.file} ${kb(chunk.served)}`);
    process.exit(1);
  }
  const heavy = heavyConsoleStart(dist);
  if (heavy.length > 0) {
    console.error(
      "console start: a signed-in first load imports the analytics charts or zod before any page's chunk:",
    );
    for (const chain of heavy) console.error(`  ${chain}`);
    process.exit(1);
  }
  const largest = sizes[0];
  console.log(
    `chunk budget: ${files(sizes.length)}, the largest ${largest ? `${largest.file} ${kb(largest.served)}` : 'none'} (≤ ${kb(CHUNK_BUDGET_BYTES)} ${unit})`,
  );
}
