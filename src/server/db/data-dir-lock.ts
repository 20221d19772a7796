import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A second server found the data directory taken: its message is the one line the start-up prints. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by ${holderPid ? `process ${holderPid}` : 'another process'} (a Media Console server with its database); stop it first, or set DATA_DIR to another directory`,
    );
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Where the lock lives. Node has no flock, so the lock is a listening Unix socket: on Linux in the
 * kernel's abstract namespace, which the kernel frees the instant its process dies (SIGKILL included)
 * and which binds atomically. Named by the directory's device and inode, so every spelling of the
 * path (symlinks, `..`) meets the same lock. Elsewhere a socket file in the temp directory (a stale one
 * refuses connections and is replaced).
 */
async function lockAddress(dataDir: string): Promise<{ address: string; file: boolean }> {
  const stat = await fs.stat(dataDir);
  const name = `media-console-${createHash('sha256').update(`${stat.dev}:${stat.ino}`).digest('hex').slice(0, 24)}`;
  return process.platform === 'linux'
    ? { address: `\0${name}`, file: false }
    : { address: path.join(os.tmpdir(), `${name}.sock`), file: true };
}

/** Asks the holder which process it is; null when nobody answers (a stale socket file). */
function askHolder(address: string): Promise<{ pid: number | null } | null> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let answer = '';
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve({ pid: Number(answer.trim()) || null }));
    socket.on('close', () => resolve(answer ? { pid: Number(answer.trim()) || null } : { pid: null }));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? null : { pid: null }),
    );
  });
}

function listen(address: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    // Every connection is someone asking who holds the directory: the answer is this pid.
    const server = net.createServer((socket) => socket.end(`${process.pid}\n`));
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      // Never keeps the process alive on its own.
      server.unref();
      resolve(server);
    });
  });
}

/**
 * Takes the data directory for this process, or throws DataDirInUseError naming the process that holds
 * it. The lock is held until `release` or the end of the process, however it ends.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const { address, file } = await lockAddress(dataDir);
  let server: net.Server;
  try {
    server = await listen(address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const holder = await askHolder(address);
    if (holder || !file) throw new DataDirInUseError(dataDir, holder?.pid ?? null);
    // A socket file whose process is gone: nobody listens on it any more.
    await fs.rm(address, { force: true });
    server = await listen(address);
  }
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
