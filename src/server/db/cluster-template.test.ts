import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { INITIAL_PASSWORD_FILE, scramVerifier } from './cluster-template.ts';
import { startEmbeddedPostgres } from './embedded.ts';

const dirs: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** Connects with `password` to the cluster behind `url`; the error's code when it is refused. */
async function tryPassword(url: string, password: string): Promise<string> {
  const target = new URL(url);
  target.password = encodeURIComponent(password);
  const client = new pg.Client({ connectionString: target.toString() });
  try {
    await client.connect();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

async function systemIdentifier(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      'SELECT system_identifier::text AS id FROM pg_control_system()',
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

const log = createLogger('silent');

describe('new data directories start from a cluster template', () => {
  it('keeps the first cluster as a template, copies it for the next, and gives each its own password', async () => {
    const templates = path.join(await tempDir('mc-templates-'), 'templates');
    const first = await tempDir('mc-first-');
    const a = await startEmbeddedPostgres(first, log, undefined, templates);
    let firstId: string;
    try {
      firstId = await systemIdentifier(a.url);
      expect(
        await tryPassword(a.url, (await fs.readFile(path.join(first, 'postgres-password'), 'utf8')).trim()),
      ).toBe('ok');
    } finally {
      await a.stop();
    }
    const [key] = await fs.readdir(templates);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    const templatePassword = (await fs.readFile(path.join(templates, key!, 'password'), 'utf8')).trim();
    expect(existsSync(path.join(templates, key!, 'cluster', 'PG_VERSION'))).toBe(true);
    // The template was kept before the first start: no server's lock or pid file came with it.
    expect(existsSync(path.join(templates, key!, 'cluster', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(first, INITIAL_PASSWORD_FILE))).toBe(false);

    const second = await tempDir('mc-second-');
    const b = await startEmbeddedPostgres(second, log, undefined, templates);
    try {
      // The same cluster, copied (initdb would have given it an identifier of its own).
      expect(await systemIdentifier(b.url)).toBe(firstId);
      const own = (await fs.readFile(path.join(second, 'postgres-password'), 'utf8')).trim();
      expect(own).not.toBe(templatePassword);
      expect(await tryPassword(b.url, own)).toBe('ok');
      // The one-time password the copy came with opens nothing once the start is over.
      expect(await tryPassword(b.url, templatePassword)).toBe('28P01');
      expect(existsSync(path.join(second, INITIAL_PASSWORD_FILE))).toBe(false);
      const client = new pg.Client({ connectionString: b.url });
      await client.connect();
      await client.query('CREATE TABLE kept (n int)');
      await client.end();
    } finally {
      await b.stop();
    }

    // A start that died after replacing the password but before forgetting the one-time one.
    await fs.writeFile(path.join(second, INITIAL_PASSWORD_FILE), `${templatePassword}\n`);
    const again = await startEmbeddedPostgres(second, log, undefined, templates);
    try {
      const client = new pg.Client({ connectionString: again.url });
      await client.connect();
      expect((await client.query("SELECT to_regclass('kept') IS NOT NULL AS kept")).rows[0].kept).toBe(true);
      await client.end();
      expect(existsSync(path.join(second, INITIAL_PASSWORD_FILE))).toBe(false);
    } finally {
      await again.stop();
    }
  });

  it('keeps no template when told not to', async () => {
    const dataDir = await tempDir('mc-no-template-');
    const db = await startEmbeddedPostgres(dataDir, log, undefined, null);
    try {
      const own = (await fs.readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim();
      expect(await tryPassword(db.url, own)).toBe('ok');
    } finally {
      await db.stop();
    }
    expect(existsSync(path.join(dataDir, INITIAL_PASSWORD_FILE))).toBe(false);
  });
});

describe('scramVerifier', () => {
  it('makes the verifier PostgreSQL stores for a password, with a new salt each time', async () => {
    const one = await scramVerifier('secret');
    expect(one).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/);
    expect(await scramVerifier('secret')).not.toBe(one);
  });
});
