import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * The API reference's renderer in the console's build: RapiDoc's own single-file build, copied as it is to
 * `dist/api-reference/rapidoc-min.js` (and compressed with the rest), so the page needs no CDN and the
 * running server no package beyond the build. It is outside `dist/assets`, the console's own code that
 * `check:chunks` weighs: only the API reference page loads it (see docs/performance.md).
 */
export function apiReferenceRenderer(): Plugin {
  return {
    name: 'api-reference-renderer',
    apply: 'build',
    generateBundle() {
      const file = createRequire(import.meta.url).resolve('rapidoc/dist/rapidoc-min.js');
      this.emitFile({ type: 'asset', fileName: 'api-reference/rapidoc-min.js', source: readFileSync(file) });
    },
  };
}
