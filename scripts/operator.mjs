import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshServerBundle, SERVER_ENTRIES } from './server-bundle.mjs';

/*
 * `npm run credits|catalog|templates|audit -- ...`: an operator command from the server bundle (built first
 * when missing or stale, as `npm start` does), in plain node, so a production install without
 * development dependencies runs it too. `npx tsx scripts/<name>.ts ...` runs the same from source.
 */
const COMMANDS = ['credits', 'catalog', 'templates', 'audit'];
const root = path.resolve(import.meta.dirname, '..');
const name = process.argv[2];
if (!name || !COMMANDS.includes(name) || !(name in SERVER_ENTRIES)) {
  process.stderr.write(`usage: node scripts/operator.mjs <${COMMANDS.join('|')}> [arguments]\n`);
  process.exit(2);
}
let entry;
try {
  entry = await freshServerBundle(root, (line) => process.stderr.write(`${line}\n`));
} catch (error) {
  process.stderr.write(
    `media-console: the server build failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
// The command reads its arguments from process.argv.slice(2), as when it runs on its own.
process.argv.splice(2, 1);
await import(pathToFileURL(path.join(path.dirname(entry), `${name}.js`)).href);
