import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSearch, findBrowser, NoBrowserError } from './find-browser.ts';

let root: string;

/** A file at `relative` under the temp root, executable unless said otherwise; returns its path. */
function program(relative: string, executable = true): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, executable ? 0o755 : 0o644);
  return file;
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'find-browser-test-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A search that sees only what the test made: nothing from the machine's PATH or usual places. */
function search(overrides: Partial<BrowserSearch> & { env?: BrowserSearch['env'] }): BrowserSearch {
  return {
    env: {},
    playwrightChromium: () => path.join(root, 'no-playwright/chrome'),
    usualPaths: [],
    ...overrides,
  };
}

describe('findBrowser', () => {
  it('takes CHROMIUM_PATH before anything else', () => {
    const chosen = program('chosen/my-chrome');
    const bin = path.dirname(program('bin1/chromium'));
    const found = findBrowser(
      search({
        env: { CHROMIUM_PATH: chosen, PATH: bin },
        usualPaths: [program('usual1/chromium')],
        playwrightChromium: () => program('pw1/chrome'),
      }),
    );
    expect(found).toEqual({ executablePath: chosen, source: 'CHROMIUM_PATH' });
  });

  it('refuses a CHROMIUM_PATH that is not a program, rather than quietly taking another browser', () => {
    const bin = path.dirname(program('bin2/chromium'));
    const missing = path.join(root, 'nothing-here');
    const run = () => findBrowser(search({ env: { CHROMIUM_PATH: missing, PATH: bin } }));
    expect(run).toThrow(NoBrowserError);
    expect(run).toThrow(`CHROMIUM_PATH is ${missing}`);
  });

  it('then a system Chromium or Chrome on PATH, by name in order, skipping files that do not run', () => {
    const early = path.dirname(program('bin3a/google-chrome'));
    const late = path.dirname(program('bin3b/chromium'));
    program('bin3a/chromium', false);
    const found = findBrowser(
      search({ env: { PATH: [early, late].join(path.delimiter) }, usualPaths: [program('usual3/chromium')] }),
    );
    expect(found).toEqual({ executablePath: path.join(late, 'chromium'), source: 'PATH' });
    expect(findBrowser(search({ env: { PATH: early } }))).toEqual({
      executablePath: path.join(early, 'google-chrome'),
      source: 'PATH',
    });
  });

  it('then the usual paths, before Playwright’s own', () => {
    const usual = program('usual4/google-chrome-stable');
    const found = findBrowser(
      search({
        env: { PATH: path.join(root, 'empty') },
        usualPaths: [path.join(root, 'usual4/chromium'), usual],
        playwrightChromium: () => program('pw4/chrome'),
      }),
    );
    expect(found).toEqual({ executablePath: usual, source: 'usual path' });
  });

  it('then Playwright’s own Chromium when it is installed', () => {
    const own = program('pw5/chrome');
    expect(findBrowser(search({ playwrightChromium: () => own }))).toEqual({
      executablePath: own,
      source: 'Playwright',
    });
  });

  it('then the packaged Chromium, unpacked only when nothing before it was found', () => {
    const packaged = program('packaged6/chromium');
    let unpacked = 0;
    const packagedChromium = () => {
      unpacked += 1;
      return packaged;
    };
    expect(findBrowser(search({ env: { PATH: path.join(root, 'empty') }, packagedChromium }))).toEqual({
      executablePath: packaged,
      source: 'packaged',
    });
    expect(unpacked).toBe(1);
    // A system browser (Debian's on CI) or Playwright's own still wins, and nothing is unpacked for it.
    const bin = path.dirname(program('bin6/chromium'));
    expect(findBrowser(search({ env: { PATH: bin }, packagedChromium })).source).toBe('PATH');
    expect(findBrowser(search({ usualPaths: [program('usual6/chromium')], packagedChromium })).source).toBe(
      'usual path',
    );
    expect(
      findBrowser(search({ playwrightChromium: () => program('pw6/chrome'), packagedChromium })).source,
    ).toBe('Playwright');
    expect(unpacked).toBe(1);
  });

  it('takes the packaged Chromium first when CHROMIUM_PATH is "packaged", and says why it cannot', () => {
    const packaged = program('packaged8/chromium');
    const bin = path.dirname(program('bin8/chromium'));
    const found = findBrowser(
      search({ env: { CHROMIUM_PATH: 'packaged', PATH: bin }, packagedChromium: () => packaged }),
    );
    expect(found).toEqual({ executablePath: packaged, source: 'packaged' });
    const broken = () =>
      findBrowser(
        search({
          env: { CHROMIUM_PATH: 'packaged', PATH: bin },
          packagedChromium: () => {
            throw new Error('no space left on device');
          },
        }),
      );
    expect(broken).toThrow(NoBrowserError);
    expect(broken).toThrow(
      'CHROMIUM_PATH is packaged, and the packaged Chromium cannot be used: no space left',
    );
  });

  it('says why the packaged Chromium could not be used when it is the last one left', () => {
    const missing = () => {
      throw new Error('@sparticuz/chromium is not installed (npm ci installs it with the dev dependencies)');
    };
    const run = () => findBrowser(search({ packagedChromium: missing }));
    expect(run).toThrow(NoBrowserError);
    expect(run).toThrow('the packaged one: @sparticuz/chromium is not installed');
    expect(run).toThrow('npm ci');
    const notAProgram = path.join(root, 'packaged7/chromium');
    expect(() => findBrowser(search({ packagedChromium: () => notAProgram }))).toThrow(
      `the packaged one: ${notAProgram} is not a program`,
    );
  });

  it('with none, says exactly what to run', () => {
    const run = () => findBrowser(search({ env: { PATH: path.join(root, 'empty') } }));
    expect(run).toThrow(NoBrowserError);
    expect(run).toThrow('npx playwright install chromium');
    expect(run).toThrow('apt-get install chromium');
    expect(run).toThrow('CHROMIUM_PATH');
    const noBuild = () =>
      findBrowser(
        search({
          playwrightChromium: () => {
            throw new Error('no build for this system');
          },
        }),
      );
    expect(noBuild).toThrow(NoBrowserError);
  });
});
