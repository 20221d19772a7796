import { chromium } from '@playwright/test';
import { browserOrExit } from './find-browser.ts';

// Run first by `npm test`: a machine with no browser hears so at once, not after the unit tests.
const found = browserOrExit({ env: process.env, playwrightChromium: () => chromium.executablePath() });
process.stdout.write(`end-to-end tests will use ${found.executablePath} (${found.source})\n`);
