import { defineConfig } from 'vitest/config';

// Runs needs-program.fixture.ts for optional-program.test.ts, with the reporter the project's config uses.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.fixture.ts'],
    reporters: ['verbose', '../optional-program-reporter.ts'],
  },
});
