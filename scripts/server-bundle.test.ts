import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { currentServerBundle, freshServerBundle, SERVER_ENTRIES, serverBuildDir } from './server-bundle.mjs';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** A checkout in miniature: scripts/start.ts imports a server module that reports where it thinks it is. */
async function fixtureRoot(): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-server-bundle-'));
  dirs.push(root);
  await fs.mkdir(path.join(root, 'scripts'));
  await fs.mkdir(path.join(root, 'src', 'server'), { recursive: true });
  await fs.writeFile(path.join(root, 'package.json'), '{ "type": "module" }\n');
  await fs.writeFile(
    path.join(root, 'scripts', 'start.ts'),
    "const { answer } = await import('../src/server/main.ts');\nconsole.log(JSON.stringify({ answer, dir: import.meta.dirname }));\n",
  );
  await writeServer(root, 'first');
  // The other entries: each says which file runs it.
  for (const [name, file] of Object.entries(SERVER_ENTRIES)) {
    if (name === 'start') continue;
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(
      path.join(root, file),
      `console.log(JSON.stringify({ entry: '${name}', bundle: import.meta.serverBundleUrl }));\n`,
    );
  }
  // Saved a while ago. A build is stamped with its start in whole milliseconds, and a file saved in
  // that same millisecond, just before, can carry a later fraction: the next start would rightly build
  // again (a source may have changed meanwhile), and a test expecting no rebuild would fail.
  const past = new Date(Date.now() - 120_000);
  const saved = ['package.json', 'scripts/start.ts', 'src/server/main.ts', ...Object.values(SERVER_ENTRIES)];
  for (const file of saved) {
    for (let entry = file; entry !== '.'; entry = path.dirname(entry)) {
      await fs.utimes(path.join(root, entry), past, past);
    }
  }
  return root;
}

async function writeServer(root: string, answer: string) {
  const file = path.join(root, 'src', 'server', 'main.ts');
  await fs.writeFile(
    file,
    `export const answer: string = '${answer}';\nexport const url: string = import.meta.url;\n`,
  );
}

function run<T = { answer: string; dir: string }>(entry: string): T {
  const result = spawnSync(process.execPath, [entry], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const quiet = () => {};

describe('the server bundle of npm start', () => {
  it('is built once, runs with plain node, and keeps each module’s own import.meta', async () => {
    const root = await fixtureRoot();
    expect(currentServerBundle(root)).toBeNull();
    const said: string[] = [];
    const entry = await freshServerBundle(root, (line) => said.push(line));
    expect(said).toEqual(['Building the server (missing or older than its sources)...']);
    expect(entry.startsWith(serverBuildDir(root))).toBe(true);
    // import.meta.dirname is the source's directory, not the bundle's.
    expect(run(entry)).toEqual({ answer: 'first', dir: path.join(root, 'scripts') });

    const again: string[] = [];
    expect(await freshServerBundle(root, (line) => again.push(line))).toBe(entry);
    expect(again).toEqual([]);
  });

  it('holds every entry beside start.js, each knowing the bundled file it runs from', async () => {
    const root = await fixtureRoot();
    const entry = await freshServerBundle(root, quiet);
    for (const name of Object.keys(SERVER_ENTRIES).filter((name) => name !== 'start')) {
      const file = path.join(path.dirname(entry), `${name}.js`);
      expect(run(file)).toEqual({ entry: name, bundle: pathToFileURL(file).href });
    }
  });

  it('is rebuilt when a server source is newer than the build', async () => {
    const root = await fixtureRoot();
    const first = await freshServerBundle(root, quiet);
    // As if built a minute ago; the source is saved now.
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(path.join(serverBuildDir(root), 'current'), past, past);
    await writeServer(root, 'second');
    // Newer than that build, and older than the next one (see fixtureRoot).
    const saved = new Date(Date.now() - 30_000);
    await fs.utimes(path.join(root, 'src', 'server', 'main.ts'), saved, saved);
    expect(currentServerBundle(root)).toBeNull();
    const second = await freshServerBundle(root, quiet);
    expect(second).not.toBe(first);
    expect(run(second).answer).toBe('second');
    expect(currentServerBundle(root)).toBe(second);
  });

  it('ignores test files when it decides whether the build is stale', async () => {
    const root = await fixtureRoot();
    const entry = await freshServerBundle(root, quiet);
    const later = new Date(Date.now() + 5_000);
    const test = path.join(root, 'src', 'server', 'main.test.ts');
    await fs.writeFile(test, '');
    await fs.utimes(test, later, later);
    // The directory's own mtime changed with the new file, so age the directory back.
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(path.join(root, 'src', 'server'), past, past);
    expect(currentServerBundle(root)).toBe(entry);
  });
});
