import path from 'node:path';
import { ensureConsoleBuild } from './console-build.ts';

// `npm start`: build the console if needed, then run the server in this process.
const root = path.resolve(import.meta.dirname, '..');
try {
  ensureConsoleBuild(root);
} catch (error) {
  process.stderr.write(`media-console: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await import('../src/server/main.ts');
