import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importViolations } from './check-boundaries.mjs';

/** A small tree shaped like ours: each file either keeps the rules or breaks exactly one. */
const TREE: Record<string, string> = {
  'src/contract/jobs.ts': 'export const limit = 1;',
  'src/contract/leaky.ts': "import { client } from '../client/create-client.ts';\nexport const c = client;",
  'src/client/create-client.ts': "import { limit } from '../contract/jobs.ts';\nexport const client = limit;",
  'src/client/leaky.ts': "export { Page } from '../web/page.tsx';",
  // JSX and a type-only import in a .tsx file: both must be read.
  'src/web/page.tsx':
    'import { client } from \'../client/create-client.ts\';\nexport const Page = () => <div id="a">{client}</div>;',
  'src/web/leaky.tsx':
    "import type { Port } from '../server/main.ts';\nexport const Shown = ({ port }: { port: Port }) => <p>{port}</p>;",
  'src/web/missing.ts': "import { gone } from './nowhere.ts';\nexport const g = gone;",
  'src/server/main.ts': 'export type Port = number;',
  'src/server/renders.ts': "export { Page } from '../web/page.tsx';",
  'src/server/http/auth.ts': 'export interface AuthContext {\n  teamId: string;\n}',
  'src/server/http/routes.ts': 'export const routes = [];',
  'src/server/http/uses-sdk.ts':
    "import { client } from '../../client/create-client.ts';\nexport const c = client;",
  'src/server/http/uses-sdk.test.ts':
    "import { client } from '../../client/create-client.ts';\nexport const c = client;",
  'src/server/testing/app.ts':
    "import { client } from '../../client/create-client.ts';\nexport const c = client;",
  'src/server/uses-a-script.ts': "import { tool } from '../../scripts/tool.ts';\nexport const t = tool;",
  // domain -> http: the rule the regex checkers missed.
  'src/server/domain/billing.ts':
    "import type { AuthContext } from '../http/auth.ts';\nexport const who = (a: AuthContext) => a.teamId;",
  'src/server/domain/jobs/create-job.ts':
    "import { routes } from '../../http/routes.ts';\nexport const f = () => routes;",
  'src/server/domain/engine.ts': "export const load = () => import('../providers/local/engine.ts');",
  'src/server/domain/engine.test.ts':
    "import { routes } from '../http/routes.ts';\nexport { engine } from '../providers/local/engine.ts';\nexport const r = routes;",
  'src/server/providers/local/engine.ts':
    "import { who } from '../../domain/billing.ts';\nexport const engine = who;",
  // A folder whose name merely starts like domain/ is not inside it.
  'src/server/domain-x/a.ts': "export { engine } from '../providers/local/engine.ts';",
  'scripts/tool.ts': 'export const tool = 1;',
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'import-rules-'));
  for (const [file, source] of Object.entries(TREE)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${source}\n`);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('npm run check:boundaries (dependency-cruiser with import-rules.mjs)', () => {
  it('finds each broken arrow, type-only, dynamic and re-exported ones and those in .tsx files included, and only those', async () => {
    const found = (await importViolations(root)).map((v) => `${v.rule}: ${v.from} -> ${v.to}`).sort();
    expect(found).toEqual([
      'client-only-contract: src/client/leaky.ts -> src/web/page.tsx',
      'contract-imports-nothing-of-ours: src/contract/leaky.ts -> src/client/create-client.ts',
      'domain-not-http: src/server/domain/billing.ts -> src/server/http/auth.ts',
      'domain-not-http: src/server/domain/jobs/create-job.ts -> src/server/http/routes.ts',
      'domain-not-providers: src/server/domain/engine.ts -> src/server/providers/local/engine.ts',
      'relative-imports-resolve: src/web/missing.ts -> ./nowhere.ts',
      'server-client-only-in-tests: src/server/http/uses-sdk.ts -> src/client/create-client.ts',
      'server-not-web: src/server/renders.ts -> src/web/page.tsx',
      'src-stays-in-src: src/server/uses-a-script.ts -> scripts/tool.ts',
      'web-not-server: src/web/leaky.tsx -> src/server/main.ts',
    ]);
  });
});
