import fs from 'node:fs';
import path from 'node:path';

/**
 * The rooms of src/ and where each may import from (docs/architecture.md): arrows point down only,
 * web -> client -> contract and server -> contract; contract imports nothing of ours.
 */
export const ALLOWED: Record<string, readonly string[]> = {
  contract: ['contract'],
  client: ['client', 'contract'],
  web: ['web', 'client', 'contract'],
  server: ['server', 'contract'],
};

/** The server's tests use the SDK as any client would; its production code does not. */
function isServerTest(srcDir: string, file: string): boolean {
  const relative = path.relative(path.join(srcDir, 'server'), file);
  return relative.endsWith('.test.ts') || relative.split(path.sep)[0] === 'testing';
}

/**
 * Inside the server, providers build on domain (catalog, presets, the provider contract) and domain never
 * imports providers: what domain needs from an engine it declares itself and is given at start-up. Tests
 * may still use real engines.
 */
function isDomainIntoProviders(srcDir: string, file: string, target: string): boolean {
  const under = (dir: string, p: string) => !path.relative(path.join(srcDir, dir), p).startsWith('..');
  return under('server/domain', file) && under('server/providers', target) && !isServerTest(srcDir, file);
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

export interface Violation {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

function roomOf(srcDir: string, file: string): string | null {
  const relative = path.relative(srcDir, file);
  if (relative.startsWith('..')) return null;
  return relative.split(path.sep)[0] ?? null;
}

/** Every import in `source` (a file under srcDir) that crosses into a room it may not use. */
export function violationsIn(srcDir: string, file: string, source: string): Violation[] {
  const from = roomOf(srcDir, file);
  if (!from || !ALLOWED[from]) return [];
  const out: Violation[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (!specifier?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier);
    const to = roomOf(srcDir, target);
    if (isDomainIntoProviders(srcDir, file, target)) {
      out.push({ file, specifier, from: 'server/domain', to: 'server/providers' });
    } else if (to === null) {
      out.push({ file, specifier, from, to: '(outside src)' });
    } else if (
      !ALLOWED[from].includes(to) &&
      !(from === 'server' && to === 'client' && isServerTest(srcDir, file))
    ) {
      out.push({ file, specifier, from, to });
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const srcDir = path.resolve(import.meta.dirname, '..', 'src');
  const violations = sourceFiles(srcDir).flatMap((file) =>
    violationsIn(srcDir, file, fs.readFileSync(file, 'utf8')),
  );
  for (const v of violations) {
    process.stderr.write(
      `${path.relative(process.cwd(), v.file)}: ${v.from} may not import ${v.to} ('${v.specifier}')\n`,
    );
  }
  if (violations.length) process.exit(1);
  process.stdout.write(
    'import boundaries: ok (web -> client -> contract, server -> contract, server/providers -> server/domain)\n',
  );
}
