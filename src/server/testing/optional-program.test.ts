import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { skippedProgramsLine } from './optional-program-reporter.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const fixtureConfig = path.join(import.meta.dirname, 'optional-program-fixture/vitest.config.ts');

/** Runs needs-program.fixture.ts in a vitest of its own; REQUIRE_OPTIONAL_PROGRAMS only when given. */
async function runFixture(require?: '1') {
  const { REQUIRE_OPTIONAL_PROGRAMS: _ciValue, ...env } = process.env;
  const run = promisify(execFile)(
    path.join(root, 'node_modules/.bin/vitest'),
    ['run', '--config', fixtureConfig],
    { cwd: root, env: { ...env, NO_COLOR: '1', ...(require ? { REQUIRE_OPTIONAL_PROGRAMS: require } : {}) } },
  );
  try {
    const { stdout } = await run;
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const lastLine = (output: string) => output.trimEnd().split('\n').at(-1);

describe('tests that need an optional program', () => {
  it('skip where it is missing, each saying what to install, and the run ends with one line listing them', async () => {
    const { code, output } = await runFixture();
    expect(code).toBe(0);
    expect(output).toContain('✓ needs-program.fixture.ts > runs when its program is installed');
    expect(output).toMatch(
      /↓ needs-program.fixture.ts > stops before its body when the program is missing .*\[needs Nowhere: apt-get install nowhere\]/,
    );
    expect(output).toMatch(/↓ .*> a suite that needs the missing program > first .*\[needs Nowhere/);
    expect(output).not.toContain('the body ran without its program');
    expect(lastLine(output)).toBe(
      'Skipped 3 tests for want of optional programs: Nowhere is not installed (apt-get install nowhere) ' +
        'in needs-program.fixture.ts (3). REQUIRE_OPTIONAL_PROGRAMS=1 turns these skips into failures.',
    );
  });

  it('fail instead when REQUIRE_OPTIONAL_PROGRAMS=1, saying what to install', async () => {
    const { code, output } = await runFixture('1');
    expect(code).toBe(1);
    expect(output).toContain('Tests  3 failed | 1 passed (4)');
    expect(output).toContain(
      'Nowhere is not installed, and REQUIRE_OPTIONAL_PROGRAMS=1 asks for every optional program: apt-get install nowhere',
    );
    expect(output).not.toContain('the body ran without its program');
    expect(output).not.toContain('Skipped 3 tests');
  });
});

describe('skippedProgramsLine', () => {
  it('says nothing when nothing was skipped', () => {
    expect(skippedProgramsLine([])).toBeNull();
  });

  it('groups by program, then by file with counts, in one line', () => {
    const sphinx = { name: 'PocketSphinx', install: 'apt-get install pocketsphinx pocketsphinx-en-us' };
    const other = { name: 'Other', install: 'apt-get install other' };
    const line = skippedProgramsLine([
      { module: 'a.test.ts', program: sphinx },
      { module: 'b.test.ts', program: sphinx },
      { module: 'a.test.ts', program: sphinx },
      { module: 'c.test.ts', program: other },
    ]);
    expect(line).toBe(
      'Skipped 4 tests for want of optional programs: ' +
        'PocketSphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us) in a.test.ts (2), b.test.ts (1); ' +
        'Other is not installed (apt-get install other) in c.test.ts (1). ' +
        'REQUIRE_OPTIONAL_PROGRAMS=1 turns these skips into failures.',
    );
    expect(line).not.toContain('\n');
  });

  it('counts one test as one test', () => {
    expect(skippedProgramsLine([{ module: 'a.test.ts', program: { name: 'X', install: 'y' } }])).toMatch(
      /^Skipped 1 test for want/,
    );
  });
});
