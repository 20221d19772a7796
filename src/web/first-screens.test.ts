import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * What a first load downloads before it shows anything follows the static imports from main.tsx and
 * the screen it picks (dynamic imports load later, on demand). Read from the sources, so a page of the
 * console imported eagerly into the sign-in page, or zod into every screen, fails here before it ships.
 */

const web = import.meta.dirname;

/**
 * The contract's endpoint table, which the client imports: the console's build swaps it for the routing
 * fields alone (vite.config.ts, endpointRoutesOnly), so its schemas are not part of any first load.
 */
const SWAPPED_BY_THE_BUILD = path.resolve(web, '../contract/endpoints.ts');

/** `import x from './y'`, `import { a, type B } from "y"`, `export { a } from './y'`, `import './y'`; not `import type`. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

function resolveLocal(from: string, specifier: string): string {
  const target = path.resolve(path.dirname(from), specifier);
  if (!existsSync(target))
    throw new Error(`${path.relative(web, from)} imports ${specifier}, which is not there`);
  return target;
}

/** Every file and package a module pulls in at load time: static, non-type imports, followed through our own files. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [path.join(web, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.tsx?$/.test(file) || file === SWAPPED_BY_THE_BUILD) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) pending.push(resolveLocal(file, specifier!));
      else
        packages.add(
          specifier!.startsWith('@')
            ? specifier!.split('/').slice(0, 2).join('/')
            : specifier!.split('/')[0]!,
        );
    }
  }
  return { files, packages };
}

const relative = (files: Set<string>) => [...files].map((file) => path.relative(path.join(web, '..'), file));

describe('what a first load fetches before its screen', () => {
  it('the entry loads neither screen: main.tsx picks one and imports it on demand', () => {
    const { files, packages } = staticGraph('main.tsx');
    const screens = relative(files).filter((file) =>
      /web\/(console|signed-out|router)\.tsx$|web\/routes\//.test(file),
    );
    expect(screens).toEqual([]);
    expect([...packages]).not.toContain('zod');
    expect([...packages]).not.toContain('@tanstack/react-router');
  });

  it('the sign-in page alone holds no code of the signed-in pages, no router and no zod', () => {
    const { files, packages } = staticGraph('signed-out.tsx');
    const signedInCode = relative(files).filter(
      (file) => file.startsWith('web/routes/') && !file.startsWith('web/routes/-components/sign-in/'),
    );
    expect(signedInCode).toEqual([]);
    // The client's endpoint table (routing fields only, once built) and path filling; no schema.
    expect(relative(files).filter((file) => file.startsWith('contract/'))).toEqual([
      'contract/endpoints.ts',
      'contract/endpoint.ts',
    ]);
    expect([...packages].sort()).not.toContain('zod');
    expect([...packages]).not.toContain('@tanstack/react-router');
    // The sign-in page is really in the graph (a wrong entry name would pass the checks above).
    expect(relative(files)).toContain('web/routes/-components/sign-in/sign-in-page.tsx');
  });

  it("every route's own options (search and path params, loaders) load without zod", () => {
    // The router runs them from the console's first chunk: zod there is in every signed-in first visit.
    const routes = readdirSync(path.join(web, 'routes')).filter((file) => /\.tsx?$/.test(file));
    const withZod = routes.filter((file) =>
      /^\s*import\s+(?!type\s)[^;]*from\s*['"]zod['"]/m.test(
        readFileSync(path.join(web, 'routes', file), 'utf8'),
      ),
    );
    expect(withZod).toEqual([]);
    for (const reader of [
      'search-params/fields.ts',
      'queries/job-filters.ts',
      'queries/file-filters.ts',
      'routes/-components/analytics/analytics-search.ts',
      'routes/-components/presets/preset-search.ts',
      'routes/-components/templates/template-search.ts',
    ]) {
      const { files, packages } = staticGraph(reader);
      expect([...packages], reader).not.toContain('zod');
      // The contract's schemas build zod at load: only its plain values may come along.
      expect(
        relative(files).filter((file) => file.startsWith('contract/') && !file.endsWith('/values.ts')),
        reader,
      ).toEqual([]);
    }
  });

  it("the playground's form renders without zod: its checks load when the form is first touched", () => {
    const { packages } = staticGraph('routes/-components/playground/playground-page.tsx');
    expect([...packages]).not.toContain('zod');
    expect([...packages]).not.toContain('@hookform/resolvers');
  });

  it("the playground's first paint holds none of what opens later: each loads on first use", () => {
    const { files } = staticGraph('routes/-components/playground/playground-page.tsx');
    const later = [
      'web/uploads/use-upload-queue.ts', // uploads: a file chosen, dropped or about to be
      'web/routes/-components/playground/field-uploads.tsx',
      'web/routes/-components/playground/model-list.tsx', // the model picker, opened
      'web/routes/-components/playground/followed-job.tsx', // a job shown in the result panel
      'web/routes/-components/playground/job-outputs.tsx',
      'web/components/modal-dialog.tsx', // comparing runs
      'web/routes/-components/playground/submit-failure.tsx', // a refused run
      'web/routes/-components/playground/voice-field.tsx', // the speech tool's form
    ];
    // Each is really there (a renamed file would pass the check below).
    for (const file of later) expect(existsSync(path.join(web, '..', file)), file).toBe(true);
    expect(relative(files).filter((file) => later.includes(file))).toEqual([]);
  });
});
