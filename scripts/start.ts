import path from 'node:path';
import { ensureConsoleBuild } from './console-build.ts';

// `npm start` (bundled by server-bundle.mjs; `tsx scripts/start.ts` runs it from source): build the
// console if needed, then run the server in this process.
const root = path.resolve(import.meta.dirname, '..');
// A STATIC_DIR elsewhere is a console build of its own (the e2e run's, say): not ours to rebuild.
const servesOwnBuild = path.resolve(process.env.STATIC_DIR ?? './dist') === path.join(root, 'dist');
try {
  if (servesOwnBuild) ensureConsoleBuild(root);
} catch (error) {
  process.stderr.write(`media-console: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await import('../src/server/main.ts');
