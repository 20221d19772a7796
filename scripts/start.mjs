import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshServerBundle } from './server-bundle.mjs';

/*
 * `npm start`: plain Node runs the server from a bundle of scripts/start.ts, built on the first start and
 * again only after a source changed (server-bundle.mjs), so a start transpiles nothing.
 * `tsx scripts/start.ts` runs the same start from source.
 * `node scripts/start.mjs --build-only` (`npm run build:server`) builds the bundle when it is missing or
 * stale, prints its entry file and exits: an image builds it ahead of time and runs `node <entry>`.
 */
const root = path.resolve(import.meta.dirname, '..');
const buildOnly = process.argv.includes('--build-only');
let entry;
try {
  entry = await freshServerBundle(root, buildOnly ? (line) => process.stderr.write(`${line}\n`) : undefined);
} catch (error) {
  process.stderr.write(
    `media-console: the server build failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
if (buildOnly) process.stdout.write(`${path.relative(root, entry)}\n`);
else await import(pathToFileURL(entry).href);
