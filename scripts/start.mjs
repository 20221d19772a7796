import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshServerBundle } from './server-bundle.mjs';

/*
 * `npm start`: plain Node runs the server from a bundle of scripts/start.ts, built on the first start and
 * again only after a source changed (server-bundle.mjs), so a start transpiles nothing.
 * `tsx scripts/start.ts` runs the same start from source.
 */
const root = path.resolve(import.meta.dirname, '..');
let entry;
try {
  entry = await freshServerBundle(root);
} catch (error) {
  process.stderr.write(
    `media-console: the server build failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
await import(pathToFileURL(entry).href);
