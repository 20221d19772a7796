import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('the DATA_DIR lock', () => {
  it('is held once, names its holder to the next taker, and is free again once released', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-lock-'));
    dirs.push(dir);
    const lock = await lockDataDir(dir);
    const refused = await lockDataDir(dir).catch((error) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect(refused.holderPid).toBe(process.pid);
    expect(refused.message).toContain(`is in use by process ${process.pid}`);
    // Another directory is another lock.
    const other = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-lock-'));
    dirs.push(other);
    const otherLock = await lockDataDir(other);
    await otherLock.release();
    await lock.release();
    const again = await lockDataDir(dir);
    await again.release();
  });
});
