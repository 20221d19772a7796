import type { TestContext } from 'vitest';
import { findPocketsphinx, POCKETSPHINX_INSTALL_COMMAND } from '../domain/catalog/pocketsphinx-setup.ts';

/*
 * Tests of features that need a system program the server treats as optional (it starts without it and
 * says so). Where the program is missing such a test skips, saying what to install, and the
 * optional-program reporter ends the run with one line listing those skips. CI sets
 * REQUIRE_OPTIONAL_PROGRAMS=1, which turns the skips into failures, so nothing is skipped there unseen.
 */

export interface OptionalProgram {
  name: string;
  /** The command that installs it (Debian and Ubuntu). */
  install: string;
  installed: () => boolean;
}

/** What a skipped test carries in its metadata, for the reporter. */
export interface MissingProgram {
  name: string;
  install: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    missingProgram?: MissingProgram;
  }
}

export const REQUIRE_OPTIONAL_PROGRAMS = 'REQUIRE_OPTIONAL_PROGRAMS';

export const POCKETSPHINX: OptionalProgram = {
  name: 'PocketSphinx',
  install: POCKETSPHINX_INSTALL_COMMAND,
  installed: () => findPocketsphinx() !== null,
};

/** The reason a test gives when it skips for want of `program`. */
export const missingProgramNote = (program: MissingProgram) => `needs ${program.name}: ${program.install}`;

/**
 * Call first in a test (or in a `beforeEach`, for a whole `describe`) that needs `program`: returns when it
 * is installed, else skips the test with the reason, or fails it when REQUIRE_OPTIONAL_PROGRAMS=1.
 */
export function needsProgram(
  program: OptionalProgram,
  context: Pick<TestContext, 'skip' | 'task'>,
  env: Record<string, string | undefined> = process.env,
): void {
  if (program.installed()) return;
  const missing = { name: program.name, install: program.install };
  if (env[REQUIRE_OPTIONAL_PROGRAMS] === '1') {
    throw new Error(
      `${program.name} is not installed, and ${REQUIRE_OPTIONAL_PROGRAMS}=1 asks for every optional ` +
        `program: ${program.install}`,
    );
  }
  context.task.meta.missingProgram = missing;
  context.skip(missingProgramNote(missing));
}
