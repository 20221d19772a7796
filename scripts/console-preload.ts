import { createHash } from 'node:crypto';
import type { Plugin, Rollup } from 'vite';

/*
 * A signed-in first load fetched the console's code in three waves, each waiting for the one before to
 * download and run: index.html's entry (react, react-dom, the client), then the console (router, route
 * options and loaders: main.tsx imports it once it runs), then the page (console.tsx starts its chunk
 * once the router exists). On the browser's six connections to the server each wave costs round trips
 * and the entry's evaluation sits between them. This plugin writes a small classic script, loaded by
 * index.html right after the entry's own preloads, that asks for the other two waves at once when the
 * visitor is signed in: the console's chunk and everything it imports, and the chunk of the page at
 * this address (with the console layout's) and what they import. Signed out, it asks for nothing: the
 * sign-in page loads on its own.
 *
 * A classic script from 'self', as the console's Content-Security-Policy allows; hashed, so it is cached
 * with the chunks it names. It only hints: a wrong guess costs bytes, never behaviour, because
 * main.tsx and the router import what they need anyway (and find it already fetched).
 */

/** The router's split page components: `src/web/routes/<file>.tsx?tsr-split=component`. */
const SPLIT_COMPONENT = /src\/web\/routes\/([^/?]+)\.tsx\?tsr-split=component$/;

/**
 * The address a route file answers, as path segments (`$` for a parameter), from TanStack Router's file
 * names: `_app.jobs.$jobId` is /jobs/<id>, `_app.files_.$fileId` /files/<id> (not nested in /files), a
 * segment starting with `_` a layout without a path, `index` the layout's own address. `layout` for the
 * console layout itself, which every signed-in page renders in; null for a file no signed-in page needs.
 */
export function routeAddress(routeFile: string): string[] | 'layout' | null {
  if (routeFile === '_app') return 'layout';
  const parts = routeFile.split('.');
  if (parts[0] !== '_app') return null; // the root, the sign-in page
  return parts
    .slice(1)
    .filter((part) => part !== 'index' && !part.startsWith('_'))
    .map((part) => (part.startsWith('$') ? '$' : part.replace(/_$/, '')));
}

export interface PreloadPlan {
  /** The console's chunk and its static imports, minus what index.html preloads already. */
  console: string[];
  /** Per page: its address and its chunk with the console layout's, and their static imports (minus the above). */
  pages: Array<{ address: string[]; files: string[] }>;
}

/** Reads the plan from the build's chunks: file names relative to the output directory (`assets/x.js`). */
export function preloadPlan(bundle: Rollup.OutputBundle): PreloadPlan | null {
  const chunks = Object.values(bundle).filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  const closure = (...starts: string[]) => {
    const files = new Set<string>();
    const pending = [...starts];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (files.has(file)) continue;
      files.add(file);
      const chunk = bundle[file];
      if (chunk?.type === 'chunk') pending.push(...chunk.imports);
    }
    return files;
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  const consoleChunk = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/web/console.tsx'));
  const routes = chunks.flatMap((chunk) => {
    const file = chunk.facadeModuleId?.match(SPLIT_COMPONENT)?.[1];
    const address = file ? routeAddress(file) : null;
    return address ? [{ address, file: chunk.fileName }] : [];
  });
  const layout = routes.find((route) => route.address === 'layout');
  if (!entry || !consoleChunk || !layout) return null;

  const fetchedByHtml = closure(entry.fileName);
  const without = (files: Set<string>, ...known: Set<string>[]) =>
    [...files].filter((file) => !known.some((set) => set.has(file))).sort();
  const consoleFiles = closure(consoleChunk.fileName);
  return {
    console: without(consoleFiles, fetchedByHtml),
    pages: routes.flatMap((route) =>
      route.address === 'layout'
        ? []
        : [
            {
              address: route.address,
              files: without(closure(layout.file, route.file), fetchedByHtml, consoleFiles),
            },
          ],
    ),
  };
}

/**
 * The script itself. Signed in is what src/web/auth/auth.ts says (a stored session not yet expired, or an
 * API key in the server settings), read from the same storage keys; `base` is the build's base URL.
 */
export function preloadScript(plan: PreloadPlan, base: string): string {
  return `// Fetches the signed-in console's code at once (scripts/console-preload.ts).
(function () {
  try {
    var session = JSON.parse(localStorage.getItem('media-console:session') || 'null');
    var server = JSON.parse(localStorage.getItem('media-console:server') || 'null');
    var signedIn =
      (session && typeof session.token === 'string' && Date.parse(session.expiresAt) > Date.now()) ||
      (server !== null && typeof server === 'object' && typeof server.apiKey === 'string');
    if (!signedIn) return;
    var plan = ${JSON.stringify(plan)};
    var here = location.pathname.split('/').filter(Boolean);
    var files = plan.console.slice();
    for (var i = 0; i < plan.pages.length; i++) {
      var address = plan.pages[i].address;
      var matches = address.length === here.length && address.every(function (part, n) {
        return part === '$' || part === here[n];
      });
      if (matches) files = files.concat(plan.pages[i].files);
    }
    for (var j = 0; j < files.length; j++) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.fetchPriority = 'low';
      link.href = ${JSON.stringify(base)} + files[j];
      document.head.appendChild(link);
    }
  } catch (error) {
    // Storage unreadable (blocked, or not JSON): main.tsx decides what to show, as it always does.
  }
})();
`;
}

/** The Vite plugin: writes the script and loads it from index.html, after the entry's own tags. */
export function consolePreload(): Plugin {
  let base = '/';
  return {
    name: 'console-preload',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        const plan = preloadPlan(bundle);
        if (html?.type !== 'asset' || !plan) {
          this.error('console-preload: no index.html, console chunk or console layout in the build');
        }
        const source = preloadScript(plan, base);
        const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
        const fileName = `assets/console-preload-${hash}.js`;
        this.emitFile({ type: 'asset', fileName, source });
        const tag = `    <script src="${base}${fileName}"></script>\n  </head>`;
        html.source = String(html.source).replace(/\s*<\/head>/, `\n${tag}`);
      },
    },
  };
}
