import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { type MissingProgram, REQUIRE_OPTIONAL_PROGRAMS } from './optional-program.ts';

/** One test skipped by needsProgram: where it lives and what it lacked. */
export interface ProgramSkip {
  module: string;
  program: MissingProgram;
}

/**
 * The one line that ends a run with such skips, e.g. "Skipped 3 tests for want of optional programs:
 * PocketSphinx (apt-get install …) in a.test.ts (2), b.test.ts (1). …"; null when nothing was skipped.
 */
export function skippedProgramsLine(skips: readonly ProgramSkip[]): string | null {
  if (skips.length === 0) return null;
  const byProgram = new Map<string, { program: MissingProgram; modules: Map<string, number> }>();
  for (const { module, program } of skips) {
    const entry = byProgram.get(program.name) ?? { program, modules: new Map<string, number>() };
    entry.modules.set(module, (entry.modules.get(module) ?? 0) + 1);
    byProgram.set(program.name, entry);
  }
  const groups = [...byProgram.values()].map(({ program, modules }) => {
    const where = [...modules].map(([module, count]) => `${module} (${count})`).join(', ');
    return `${program.name} is not installed (${program.install}) in ${where}`;
  });
  const tests = skips.length === 1 ? '1 test' : `${skips.length} tests`;
  return (
    `Skipped ${tests} for want of optional programs: ${groups.join('; ')}. ` +
    `${REQUIRE_OPTIONAL_PROGRAMS}=1 turns these skips into failures.`
  );
}

/** Ends the run with skippedProgramsLine, after the default reporter's summary. */
export default class OptionalProgramReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const skips = testModules.flatMap((testModule) =>
      [...testModule.children.allTests('skipped')].flatMap((test) => {
        const program = test.meta().missingProgram;
        return program ? [{ module: testModule.relativeModuleId, program }] : [];
      }),
    );
    const line = skippedProgramsLine(skips);
    if (line) this.vitest?.logger.log(line);
  }
}
