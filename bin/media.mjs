#!/usr/bin/env node
// The `media` command. A bundled build (npm run build:cli) runs as is; in a checkout, the TypeScript
// sources run through tsx's loader, so `npx media` works without a build step.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist-cli/media.mjs', import.meta.url));
if (existsSync(bundle)) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
