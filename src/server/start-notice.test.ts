import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded.ts';
import { POCKETSPHINX_BINARY } from './domain/catalog/pocketsphinx-setup.ts';
import { pathWithout } from './testing/path-without.ts';
import { startServerProcess } from './testing/server-process.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('npm start on a machine without PocketSphinx or provider keys', () => {
  it('prints once which models cannot run here and why, one line per reason', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-start-notice-'));
    dirs.push(dataDir);
    const withoutSphinx = await pathWithout(POCKETSPHINX_BINARY, process.env.PATH ?? '', dataDir);
    const port = await freePort();

    const server = startServerProcess({
      PATH: withoutSphinx,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    try {
      await server.ready;
      // The notice follows the `ready` log line, perhaps in a later chunk of output.
      for (let i = 0; i < 600 && !server.output().includes('FAL_KEY'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const output = server.output();
      const lines = output.split('\n').filter((line) => line.includes(' cannot run here: '));
      const sphinx = lines.filter((line) => line.includes('local-pocketsphinx'));
      expect(sphinx).toEqual([
        '  1 model cannot run here: local-pocketsphinx — Install PocketSphinx to enable it: ' +
          'apt-get install pocketsphinx pocketsphinx-en-us.',
      ]);
      expect(lines.some((line) => line.endsWith('— Set FAL_KEY on the server to enable fal.'))).toBe(true);
      expect(output.indexOf('Media Console is running at')).toBeLessThan(output.indexOf(sphinx[0]!));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
