import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev`/`vite` finds the reference server (its default port). */
const API_ORIGIN = 'http://localhost:8787';

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
  ],
  server: {
    proxy: {
      '/v2': API_ORIGIN,
      '/v1': API_ORIGIN,
      '/api': API_ORIGIN,
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
  },
});
