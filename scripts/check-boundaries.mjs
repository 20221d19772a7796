import { createRequire } from 'node:module';
import path from 'node:path';
import { IMPORT_RULES } from './import-rules.mjs';

/*
 * `npm run check:boundaries`: dependency-cruiser checks src/ against the rules of import-rules.mjs.
 *
 * It parses with swc, not with the TypeScript compiler it would use by default: the project's
 * TypeScript is 7 (the native compiler, with no JavaScript API), which dependency-cruiser cannot load.
 * Its swc parser reads every import, type-only ones included, but asks swc for TypeScript without JSX,
 * so the console's .tsx files would not parse: swc is told to read JSX in .tsx files (the only option
 * changed). check-boundaries.test.ts fails if a .tsx file stops being checked.
 *
 * Plain JavaScript, run by node and not tsx: under tsx's interop, dependency-cruiser's import of swc's
 * Visitor class comes back as the class itself and its swc parser stops working.
 */
const swc = createRequire(import.meta.url)('@swc/core');
const parseFileSync = swc.parseFileSync;
swc.parseFileSync = (file, options) => parseFileSync(file, { ...options, tsx: file.endsWith('.tsx') });
const { cruise } = await import('dependency-cruiser');

/**
 * Every import under `baseDir`'s src/ (paths relative to `baseDir`) that breaks a rule.
 * @param {string} baseDir
 * @returns {Promise<Array<{ rule: string; from: string; to: string }>>}
 */
export async function importViolations(baseDir) {
  const result = await cruise(['src'], {
    baseDir,
    validate: true,
    ruleSet: { forbidden: IMPORT_RULES },
    parser: 'swc',
    // A worktree's node_modules may be a link to another checkout's: a package is node_modules/, wherever it lives.
    preserveSymlinks: true,
    doNotFollow: { path: '^node_modules/' },
    exclude: { path: '^node_modules/' },
  });
  const output = /** @type {import('dependency-cruiser').ICruiseResult} */ (result.output);
  return output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = await importViolations(path.resolve(import.meta.dirname, '..'));
  for (const v of violations) process.stderr.write(`${v.from}: may not import ${v.to} (${v.rule})\n`);
  if (violations.length) process.exit(1);
  process.stdout.write(
    'import boundaries: ok (web and cli -> client -> contract, server -> contract, domain imports neither providers nor http)\n',
  );
}
