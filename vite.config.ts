import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { apiReferenceRenderer } from './scripts/api-reference-renderer.ts';
import { consolePreload } from './scripts/console-preload.ts';
import { precompressAssets } from './scripts/precompress-assets.ts';
import { endpoints } from './src/contract/endpoints.ts';

/** Where `npm run dev`/`vite` finds the reference server (its default port). */
const API_ORIGIN = 'http://localhost:8787';

/**
 * The client (src/client) reads only an endpoint's method, path, host and auth when it calls; the
 * contract's table also holds every request and response schema, so importing it put the whole
 * contract and zod into the first screen of every page (sign-in included). The console's build swaps
 * the table for those four fields, taken from the real table here, so the two cannot drift; the
 * schemas load only with the pages that parse or validate with them.
 */
function endpointRoutesOnly(): Plugin {
  const table = path.resolve(import.meta.dirname, 'src/contract/endpoints.ts');
  const routes = Object.fromEntries(
    Object.entries(endpoints).map(([name, { method, path, host, auth }]) => [
      name,
      { method, path, host, auth },
    ]),
  );
  return {
    name: 'endpoint-routes-only',
    enforce: 'pre',
    load(id) {
      if (id.split('?')[0] !== table) return null;
      return `export const endpoints = ${JSON.stringify(routes)};\n`;
    },
  };
}

/** node_modules packages matching `names` (a path segment each, `@scope/name` for scoped ones). */
const packages = (...names: string[]) => new RegExp(`node_modules[\\\\/](?:${names.join('|')})[\\\\/]`);

export default defineConfig({
  plugins: [
    // The router plugin must run before the React plugin so route files are split before JSX is compiled.
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/web/routes',
      generatedRouteTree: 'src/web/route-tree.gen.ts',
      autoCodeSplitting: true,
      quoteStyle: 'single',
      semicolons: true,
      addExtensions: true,
    }),
    react(),
    tailwindcss(),
    endpointRoutesOnly(),
    apiReferenceRenderer(),
    consolePreload(),
    precompressAssets(),
  ],
  server: {
    proxy: {
      '/v2': API_ORIGIN,
      '/v1': API_ORIGIN,
      '/api': API_ORIGIN,
      // The API reference page is the server's (it has its own policy); its files are the build's.
      '/api-reference': API_ORIGIN,
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // The libraries every screen runs on, one chunk each, and the analytics charts' by package, each
        // under 60 KB as the server sends it (`npm run check:chunks` fails a build that is not; react-dom, one
        // module no bundler splits, is the largest). Named chunks change only when the library
        // does, so a console release leaves them cached.
        codeSplitting: {
          groups: [
            // Without its dependencies: react itself is a chunk of its own, shared with every screen.
            {
              name: 'react-dom',
              test: packages('react-dom'),
              priority: 20,
              includeDependenciesRecursively: false,
            },
            { name: 'react', test: packages('react', 'scheduler'), priority: 20 },
            {
              name: 'router',
              test: packages('@tanstack/(?:react-router|router-core|history|store|react-store)'),
              priority: 10,
            },
            { name: 'query', test: packages('@tanstack/(?:query-core|react-query)'), priority: 10 },
            // The analytics charts: recharts and its dependencies, one chunk far over the budget. Split by package,
            // recharts itself in two: its chart containers with everything they import (store, selectors,
            // utilities), then the rest (axes, bars, tooltip) on top. A group takes its modules' imports
            // with it, so no chunk imports one that imports it back and modules run in the library's order
            // (a split by size did not keep it).
            {
              name: 'chart-state',
              test: packages('@reduxjs/toolkit', 'redux', 'redux-thunk', 'react-redux', 'immer', 'reselect'),
              priority: 8,
            },
            { name: 'd3', test: packages('d3-[a-z-]+', 'internmap', 'victory-vendor'), priority: 8 },
            {
              name: 'chart-utils',
              test: packages(
                'es-toolkit',
                'decimal\\.js-light',
                'eventemitter3',
                'tiny-invariant',
                'clsx',
                'react-is',
              ),
              priority: 8,
            },
            { name: 'recharts-core', test: /node_modules[\\/]recharts[\\/]es6[\\/]chart[\\/]/, priority: 7 },
            { name: 'recharts', test: packages('recharts'), priority: 6 },
          ],
        },
      },
    },
  },
});
