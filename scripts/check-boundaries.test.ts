import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { violationsIn } from './check-boundaries.ts';

const src = '/repo/src';
const check = (file: string, source: string) =>
  violationsIn(src, path.join(src, file), source).map((v) => `${v.from}->${v.to}`);

describe('import boundaries', () => {
  it('allows the downward arrows', () => {
    expect(check('web/routes/a.tsx', "import { x } from '../../client/create-client.ts';")).toEqual([]);
    expect(check('web/a.ts', "import type { Me } from '../contract/account.ts';")).toEqual([]);
    expect(
      check('server/http/a.ts', "import { z } from 'zod';\nimport { e } from '../../contract/errors.ts';"),
    ).toEqual([]);
  });

  it('refuses the console importing the server and the server importing the console', () => {
    expect(check('web/a.ts', "import { startServer } from '../server/server.ts';")).toEqual(['web->server']);
    expect(check('server/a.ts', "export { Page } from '../web/page.tsx';")).toEqual(['server->web']);
    expect(check('web/a.ts', "const m = await import('../server/main.ts');")).toEqual(['web->server']);
    expect(check('server/a.ts', "import '../web/styles.css';")).toEqual(['server->web']);
  });

  it('lets only server tests use the client', () => {
    expect(
      check('server/http/a.test.ts', "import { createClient } from '../../client/create-client.ts';"),
    ).toEqual([]);
    expect(
      check('server/testing/app.ts', "import { createClient } from '../../client/create-client.ts';"),
    ).toEqual([]);
    expect(check('server/http/a.ts', "import { ApiError } from '../../client/api-error.ts';")).toEqual([
      'server->client',
    ]);
  });

  it('refuses server domain code importing the providers, which build on domain', () => {
    expect(
      check('server/domain/jobs/a.ts', "import { AbortError } from '../../providers/local/engine-run.ts';"),
    ).toEqual(['server/domain->server/providers']);
    expect(
      check('server/domain/presets/a.ts', "import type { X } from '../../providers/provider.ts';"),
    ).toEqual(['server/domain->server/providers']);
    expect(check('server/domain/a.ts', "const m = await import('../providers/local/x.ts');")).toEqual([
      'server/domain->server/providers',
    ]);
    // The arrow the other way, domain inside itself, and tests using real engines stay allowed.
    expect(
      check('server/providers/local/a.ts', "import { presetId } from '../../domain/presets/preset-id.ts';"),
    ).toEqual([]);
    expect(check('server/domain/jobs/a.ts', "import { x } from './engine-errors.ts';")).toEqual([]);
    expect(
      check('server/domain/files/a.test.ts', "import { testFfmpeg } from '../../providers/local/t.ts';"),
    ).toEqual([]);
    // A name that merely starts like the folder is not inside it.
    expect(check('server/domain-x/a.ts', "import { x } from '../providers/x.ts';")).toEqual([]);
  });

  it('keeps the contract pure', () => {
    expect(check('contract/a.ts', "import { x } from '../client/api-error.ts';")).toEqual([
      'contract->client',
    ]);
    expect(check('client/a.ts', "import { x } from '../web/x.ts';")).toEqual(['client->web']);
  });
});
