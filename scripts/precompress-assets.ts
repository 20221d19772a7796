import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files of the build worth compressing (the server compresses the same kinds when no sibling is there). */
const TEXT_EXTENSIONS = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);
/** Below this, a compressed copy saves too little to be worth a file (the server's own threshold). */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli at its best quality, 11) and `<file>.gz` (gzip -9) beside a built file. The
 * server sends these instead of compressing at the first request, which it does at brotli 9 to keep that
 * request fast: quality 11 makes the console's JavaScript and CSS a few percent smaller and takes several
 * times as long, a cost paid once here rather than by a visitor.
 */
export async function precompressFile(file: string): Promise<boolean> {
  if (!TEXT_EXTENSIONS.has(path.extname(file).toLowerCase())) return false;
  const raw = await fs.readFile(file);
  if (raw.length < MIN_BYTES) return false;
  const [br, gz] = await Promise.all([
    brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } }),
    gzip(raw, { level: 9 }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
  return true;
}

/** The Vite plugin: every text file the build writes gets its compressed siblings. */
export function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.dirname(options.file ?? '');
      await Promise.all(Object.keys(bundle).map((name) => precompressFile(path.join(dir, name))));
    },
  };
}
