import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureConsoleBuild } from '../scripts/console-build.ts';

/*
 * How much JavaScript the console ships, gzip -9 (node:zlib), each file compressed on its own as it is
 * served, read from the build's import graph. Byte counts do not depend on the machine's load, so one
 * build is measured once. What a screen really loads in a browser is bench/first-screen.ts's measure;
 * this one says where the bytes are and why.
 * - entry: what dist/index.html loads before main.tsx picks a screen: the entry chunk and its static
 *   imports (the modulepreload links; the two are checked against each other). Nothing renders with it
 *   alone: the sign-in page (signed-out) and the console (console) are loaded by the entry.
 * - each lazily loaded chunk (route components, React.lazy pieces): the chunk plus its static imports
 *   that the initial set does not already hold ("lazy total"); what it adds once its parents are in (a
 *   route's layouts and the console that holds the routes, or the chunk that loads a React.lazy piece);
 *   and "first screen": the entry set, the parents and the chunk, each file counted once: what a first
 *   visit straight to that route needs.
 * The import graph comes from dist/.vite/manifest.json when the build writes one (`build.manifest`, off in
 * vite.config.ts today), otherwise from the static `import … from "./x.js"` statements and the dynamic
 * `import("./x.js")` calls of the built chunks (minified Rolldown output: plain, predictable syntax).
 */

const root = path.resolve(import.meta.dirname, '..');
const LEVEL = 9;

interface Graph {
  /** dist-relative file → the files it imports statically / dynamically (dist-relative). */
  static: Map<string, string[]>;
  dynamic: Map<string, string[]>;
  source: 'manifest' | 'chunks';
}

/** `import{a as b}from"./x.js"`, `import"./x.js"`, `export{a}from"./x.js"`, `import*as n from"./x.js"`. */
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?(["'`])(\.{1,2}\/[^"'`]+?\.js)\1/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(["'`])(\.{1,2}\/[^"'`]+?\.js)\1\s*\)/g;

function graphFromChunks(dist: string, entry: string): Graph {
  const graph: Graph = { static: new Map(), dynamic: new Map(), source: 'chunks' };
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.static.has(file)) continue;
    const code = readFileSync(path.join(dist, file), 'utf8');
    const resolve = (spec: string) => path.posix.join(path.posix.dirname(file), spec);
    const statics = [...code.matchAll(STATIC_IMPORT)].map((m) => resolve(m[2]!));
    const dynamics = [...code.matchAll(DYNAMIC_IMPORT)].map((m) => resolve(m[2]!));
    graph.static.set(file, [...new Set(statics)]);
    graph.dynamic.set(file, [...new Set(dynamics)]);
    pending.push(...statics, ...dynamics);
  }
  return graph;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

function graphFromManifest(manifestPath: string): Graph {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const fileOf = (key: string) => manifest[key]?.file ?? key;
  const graph: Graph = { static: new Map(), dynamic: new Map(), source: 'manifest' };
  for (const chunk of Object.values(manifest)) {
    if (!chunk.file.endsWith('.js')) continue;
    graph.static.set(chunk.file, (chunk.imports ?? []).map(fileOf));
    graph.dynamic.set(chunk.file, (chunk.dynamicImports ?? []).map(fileOf));
  }
  return graph;
}

function staticClosure(graph: Graph, start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(graph.static.get(file) ?? []));
  }
  return seen;
}

/** `assets/_app.jobs._jobId-CjSHDG1T.js` → `_app.jobs._jobId`. */
const baseName = (file: string) => path.posix.basename(file, '.js').replace(/-[\w-]{8}$/, '');

/**
 * The route property a chunk is loaded for, when the importer says so (`errorComponent:…import("./x.js")`):
 * one route can split into a component and an error component chunk of the same name.
 */
function roleOf(importerCode: string, file: string): string | null {
  const at = importerCode.indexOf(`./${path.posix.basename(file)}`);
  if (at < 0) return null;
  const before = importerCode.slice(Math.max(0, at - 80), at);
  const match = before.match(/[,{](\w+):[\w$]+\(\(\)=>[\w$]+\(\(\)=>import\([`"']$/);
  return match?.[1] ?? null;
}

export interface LazyChunkSize {
  label: string;
  file: string;
  importedBy: string;
  /** gzip bytes of the chunk alone. */
  chunkGzip: number;
  /** gzip bytes of its static imports that the initial set does not hold. */
  newDepsGzip: number;
  newDeps: string[];
  /** chunkGzip + newDepsGzip: what loading it costs once the first screen is in. */
  lazyGzip: number;
  /**
   * What must be loaded before it: a route's layouts (`_app` for `_app.jobs`, then `_app.jobs` for
   * `_app.jobs._jobId`: TanStack's flat file names), or the lazy chunk that loads it.
   */
  parents: string[];
  /** gzip bytes it adds on top of the initial set and its parents' closures. */
  addedGzip: number;
  /** Initial set ∪ parents' closures ∪ own closure, each file once: a first visit straight to it. */
  firstScreenGzip: number;
}

export interface ConsoleSizeResult {
  gzipLevel: number;
  graphSource: 'manifest' | 'chunks';
  initial: {
    entry: string;
    files: number;
    rawBytes: number;
    gzipBytes: number;
    /** Whether index.html's modulepreload links are exactly the entry's static imports. */
    preloadsMatchImports: boolean;
    perFile: Record<string, number>;
  };
  /** The stylesheet index.html links, gzip (not JavaScript; for reference). */
  cssGzip: number;
  lazy: LazyChunkSize[];
}

export function consoleSize(dist = path.join(root, 'dist')): ConsoleSizeResult {
  if (dist === path.join(root, 'dist')) ensureConsoleBuild(root);
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const local = (href: string) => href.replace(/^\//, '');
  const entry = html.match(/<script[^>]*type="module"[^>]*src="([^"]+)"/)?.[1];
  if (!entry) throw new Error('no module script in dist/index.html');
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) =>
    local(m[1]!),
  );
  const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => local(m[1]!));

  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  const graph = existsSync(manifestPath)
    ? graphFromManifest(manifestPath)
    : graphFromChunks(dist, local(entry));

  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(dist, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: LEVEL }).length };
      sizes.set(file, size);
    }
    return size;
  };
  const gzipOf = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + sizeOf(file).gzip, 0);

  const initial = staticClosure(graph, local(entry));
  // Every file index.html loads counts, even a preload the graph would not reach.
  for (const file of preloads) initial.add(file);
  const imported = new Set([...staticClosure(graph, local(entry))].filter((f) => f !== local(entry)));
  const preloadsMatchImports = imported.size === preloads.length && preloads.every((f) => imported.has(f));

  // Every dynamically imported chunk reachable from the entry, with who imports it.
  const lazyFiles = new Map<string, string>();
  const pending = [...initial];
  const visited = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (visited.has(file)) continue;
    visited.add(file);
    for (const target of graph.dynamic.get(file) ?? []) {
      if (!lazyFiles.has(target) && !initial.has(target)) lazyFiles.set(target, file);
      pending.push(target);
    }
    pending.push(...(graph.static.get(file) ?? []));
  }

  const labelled = [...lazyFiles].map(([file, importer]) => {
    const name = baseName(file);
    const clash = [...lazyFiles.keys()].some((other) => other !== file && baseName(other) === name);
    const role = clash ? roleOf(readFileSync(path.join(dist, importer), 'utf8'), file) : null;
    const label = clash ? `${name} (${role ?? path.posix.basename(file, '.js')})` : name;
    return { file, importer, name, role, label };
  });
  // Route layouts: a chunk named like a route prefix, loaded as that route's component.
  const layoutByName = new Map(
    labelled.filter((c) => c.role === null || c.role === 'component').map((c) => [c.name, c.file]),
  );

  // What the page already holds when a lazy chunk starts loading: the initial set, then for a route its
  // layouts' closures (and what they stand on), for a piece loaded by another lazy chunk that chunk's.
  const byFile = new Map(labelled.map((c) => [c.file, c]));
  const contexts = new Map<string, Set<string>>();
  const parentsOf = (file: string): string[] => {
    const chunk = byFile.get(file)!;
    // A route chunk is loaded by the console chunk and shown inside its layouts; a React.lazy piece by its chunk.
    const layouts: string[] = byFile.has(chunk.importer) ? [chunk.importer] : [];
    if (!chunk.name.startsWith('_app') && chunk.name !== 'sign-in') return layouts;
    const parts = chunk.name.split('.');
    for (let i = 1; i < parts.length; i++) {
      const layout = layoutByName.get(parts.slice(0, i).join('.'));
      if (layout) layouts.push(layout);
    }
    return layouts;
  };
  const contextOf = (file: string): Set<string> => {
    let context = contexts.get(file);
    if (!context) {
      context = new Set(initial);
      for (const parent of parentsOf(file)) {
        for (const f of contextOf(parent)) context.add(f);
        for (const f of staticClosure(graph, parent)) context.add(f);
      }
      contexts.set(file, context);
    }
    return context;
  };

  const lazy: LazyChunkSize[] = labelled.map(({ file, importer, label }) => {
    const closure = staticClosure(graph, file);
    const newDeps = [...closure].filter((f) => f !== file && !initial.has(f));
    const context = contextOf(file);
    const added = [...closure].filter((f) => !context.has(f));
    const chunkGzip = sizeOf(file).gzip;
    const newDepsGzip = gzipOf(newDeps);
    return {
      label,
      file,
      importedBy: baseName(importer),
      chunkGzip,
      newDepsGzip,
      newDeps: newDeps.map(baseName),
      lazyGzip: chunkGzip + newDepsGzip,
      parents: parentsOf(file).map((f) => byFile.get(f)!.label),
      addedGzip: gzipOf(added),
      firstScreenGzip: gzipOf(context) + gzipOf(added),
    };
  });
  // Route chunks (loaded by the entry) first, by name, then the pieces they load lazily.
  const entryName = baseName(local(entry));
  lazy.sort(
    (a, b) =>
      Number(a.importedBy !== entryName) - Number(b.importedBy !== entryName) ||
      a.label.localeCompare(b.label),
  );

  return {
    gzipLevel: LEVEL,
    graphSource: graph.source,
    initial: {
      entry: local(entry),
      files: initial.size,
      rawBytes: [...initial].reduce((sum, file) => sum + sizeOf(file).raw, 0),
      gzipBytes: gzipOf(initial),
      preloadsMatchImports,
      perFile: Object.fromEntries(
        [...initial].map((file) => [baseName(file), sizeOf(file).gzip] as const).sort((a, b) => b[1] - a[1]),
      ),
    },
    cssGzip: gzipOf(css),
    lazy,
  };
}

/** KB are 1,000 bytes, as in bench/first-screen.ts and the figures. */
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export function consoleSizeTable(result: ConsoleSizeResult): string {
  const { initial } = result;
  const rows: string[][] = [
    ['', 'chunk', '+deps not in entry', 'lazy total', 'adds', 'first screen', 'after'],
  ];
  rows.push([`entry (${initial.files} files)`, '', '', '', '', kb(initial.gzipBytes), 'index.html']);
  for (const c of result.lazy) {
    rows.push([
      c.label,
      kb(c.chunkGzip),
      c.newDeps.length ? `${kb(c.newDepsGzip)} (${c.newDeps.length})` : '-',
      kb(c.lazyGzip),
      kb(c.addedGzip),
      kb(c.firstScreenGzip),
      c.parents.length ? c.parents.join(' + ') : 'entry',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const last = widths.length - 1;
  const lines = rows.map((row) =>
    row
      .map((cell, i) => (i === 0 || i === last ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  '),
  );
  const top = Object.entries(initial.perFile)
    .slice(0, 4)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
    .join(', ');
  return [
    `console JS size (gzip -${result.gzipLevel}, each file on its own; import graph from ${result.graphSource === 'manifest' ? 'dist/.vite/manifest.json' : 'the built chunks (no manifest)'}; byte counts, not timings: the shared machine's load does not change them)`,
    `entry (before main.tsx picks the sign-in page or the console; not a screen): ${initial.files} files (entry + ${initial.files - 1} modulepreloads, ${initial.preloadsMatchImports ? 'matching' : 'NOT matching'} its static imports), ${kb(initial.rawBytes)} raw, ${kb(initial.gzipBytes)} gzip; largest ${top}; CSS ${kb(result.cssGzip)} gzip`,
    'lazy chunks: chunk alone; + its static imports not in the entry set; = lazy total; adds = beyond what is loaded after its parents; first screen = entry + parents + it (static estimate: bench/first-screen.ts measures screens in Chromium)',
    ...lines.map((line) => `  ${line.trimEnd()}`),
    '',
  ].join('\n');
}

// `tsx bench/console-size.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = consoleSize();
  process.stdout.write(consoleSizeTable(result));
}
