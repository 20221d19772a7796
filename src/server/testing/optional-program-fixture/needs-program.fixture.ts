import { beforeEach, describe, expect, it } from 'vitest';
import { needsProgram, type OptionalProgram } from '../optional-program.ts';

// Run by optional-program.test.ts in a vitest of its own: two programs, one installed and one not.
const installed: OptionalProgram = { name: 'Here', install: 'apt-get install here', installed: () => true };
const missing: OptionalProgram = {
  name: 'Nowhere',
  install: 'apt-get install nowhere',
  installed: () => false,
};

it('runs when its program is installed', (context) => {
  needsProgram(installed, context);
  expect(installed.installed()).toBe(true);
});

it('stops before its body when the program is missing', (context) => {
  needsProgram(missing, context);
  throw new Error('the body ran without its program');
});

describe('a suite that needs the missing program', () => {
  beforeEach((context) => needsProgram(missing, context));

  it('first', () => {
    throw new Error('the body ran without its program');
  });

  it('second', () => {
    throw new Error('the body ran without its program');
  });
});
