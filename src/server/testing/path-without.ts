import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * A PATH like `envPath` on which `program` cannot be found, for tests of a machine without it: each
 * directory that holds it becomes a directory (under `scratch`) of links to everything else there.
 */
export async function pathWithout(program: string, envPath: string, scratch: string): Promise<string> {
  const dirs = envPath.split(path.delimiter).filter(Boolean);
  const kept: string[] = [];
  for (const [index, dir] of dirs.entries()) {
    if (!existsSync(path.join(dir, program))) {
      kept.push(dir);
      continue;
    }
    const copy = path.join(scratch, `path-${index}`);
    await mkdir(copy, { recursive: true });
    for (const name of await readdir(dir)) {
      if (name !== program) await symlink(path.join(dir, name), path.join(copy, name));
    }
    kept.push(copy);
  }
  return kept.join(path.delimiter);
}
