import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AbortError, EngineInputError } from './engine-run.ts';

/** The settings that choose the media binaries. */
export interface MediaBinarySettings {
  FFMPEG_PATH?: string | undefined;
  FFPROBE_PATH?: string | undefined;
}

/** Where a media binary came from: its setting, the PATH (Debian's `ffmpeg` package), or an npm package. */
export type MediaBinarySource = 'setting' | 'path' | 'bundled';

export interface MediaBinary {
  path: string;
  source: MediaBinarySource;
}

/**
 * The ffmpeg binary: `FFMPEG_PATH` when set, else `ffmpeg` on the PATH (Debian's, maintained with its
 * security updates, in the image and on CI), else the static build bundled by @ffmpeg-installer/ffmpeg
 * (ffmpeg 4.1 of 2018: a last resort, the start-up log says so).
 */
export function findFfmpeg(
  config: MediaBinarySettings,
  envPath: string = process.env.PATH ?? '',
): MediaBinary {
  if (config.FFMPEG_PATH) return { path: config.FFMPEG_PATH, source: 'setting' };
  const found = findOnPath('ffmpeg', envPath);
  if (found) return { path: found, source: 'path' };
  return { path: bundledBinary('@ffmpeg-installer/ffmpeg', 'ffmpeg'), source: 'bundled' };
}

/**
 * The ffprobe binary: `FFPROBE_PATH` when set, else the ffprobe beside `FFMPEG_PATH` (a build of ffmpeg
 * ships both), else `ffprobe` on the PATH, else the static build bundled by @ffprobe-installer/ffprobe.
 */
export function findFfprobe(
  config: MediaBinarySettings,
  envPath: string = process.env.PATH ?? '',
): MediaBinary {
  if (config.FFPROBE_PATH) return { path: config.FFPROBE_PATH, source: 'setting' };
  if (config.FFMPEG_PATH) {
    const beside = findOnPath('ffprobe', path.dirname(config.FFMPEG_PATH));
    if (beside) return { path: beside, source: 'setting' };
  }
  const found = findOnPath('ffprobe', envPath);
  if (found) return { path: found, source: 'path' };
  return { path: bundledBinary('@ffprobe-installer/ffprobe', 'ffprobe'), source: 'bundled' };
}

/** The path of findFfmpeg. */
export function ffmpegPath(config: MediaBinarySettings, envPath?: string): string {
  return findFfmpeg(config, envPath).path;
}

/** The path of findFfprobe. */
export function ffprobePath(config: MediaBinarySettings = {}, envPath?: string): string {
  return findFfprobe(config, envPath).path;
}

function findOnPath(binary: string, envPath: string): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The binary of an installer package (CommonJS packages that throw on unsupported platforms). */
export function bundledBinary(
  pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe',
  name: string,
): string {
  try {
    const installer = createRequire(import.meta.url)(pkg) as { path: string };
    return installer.path;
  } catch (error) {
    const setting = name === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
    throw new Error(
      `No ${name}: ${setting} is not set, ${name} is not on the PATH and the bundled build is missing (${
        error instanceof Error ? error.message : String(error)
      }).`,
    );
  }
}

/**
 * When an installer package's static build was made ("2018-12-10"), from its `version` field
 * ("20181210-g0e8eb07980"); null when the package is missing or says no date.
 */
export function bundledBuildDate(
  pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe',
): string | null {
  try {
    const { version } = createRequire(import.meta.url)(pkg) as { version?: string };
    const match = /^(\d{4})(\d{2})(\d{2})-/.exec(version ?? '');
    return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
  } catch {
    return null;
  }
}

/** The first line of `<binary> -version` ("ffmpeg version 5.1.9-0+deb12u1 ..."), or why there is none. */
export function binaryVersion(binary: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['-hide_banner', '-version'],
      { timeout: 10_000, windowsHide: true },
      (error, stdout) => {
        const line = stdout.split('\n')[0]?.trim();
        if (line) resolve(line.replace(/\s+Copyright.*$/, ''));
        else resolve(`unknown (${error ? error.message : 'no output'})`);
      },
    );
  });
}

/**
 * What the start-up log says about the media binaries: which ones run, where they come from and their
 * versions; `bundled` is set when either is an installer package's old static build, and `bundled_built`
 * then says when each such build was made (their version lines carry no release number, only a commit).
 */
export async function describeMediaBinaries(
  config: MediaBinarySettings,
  envPath?: string,
): Promise<{
  ffmpeg: string;
  ffmpeg_from: MediaBinarySource;
  ffmpeg_version: string;
  ffprobe: string;
  ffprobe_from: MediaBinarySource;
  ffprobe_version: string;
  bundled: boolean;
  bundled_built?: string;
}> {
  const ffmpeg = findFfmpeg(config, envPath);
  const ffprobe = findFfprobe(config, envPath);
  const [ffmpegVersion, ffprobeVersion] = await Promise.all([
    binaryVersion(ffmpeg.path),
    binaryVersion(ffprobe.path),
  ]);
  return {
    ffmpeg: ffmpeg.path,
    ffmpeg_from: ffmpeg.source,
    ffmpeg_version: ffmpegVersion,
    ffprobe: ffprobe.path,
    ffprobe_from: ffprobe.source,
    ffprobe_version: ffprobeVersion,
    bundled: ffmpeg.source === 'bundled' || ffprobe.source === 'bundled',
    ...builtDates(ffmpeg.source === 'bundled', ffprobe.source === 'bundled'),
  };
}

function builtDates(ffmpeg: boolean, ffprobe: boolean): { bundled_built?: string } {
  const dates = [
    ffmpeg ? `ffmpeg built ${bundledBuildDate('@ffmpeg-installer/ffmpeg') ?? 'on an unknown day'}` : null,
    ffprobe ? `ffprobe built ${bundledBuildDate('@ffprobe-installer/ffprobe') ?? 'on an unknown day'}` : null,
  ].filter(Boolean);
  return dates.length > 0 ? { bundled_built: dates.join(', ') } : {};
}

/** Options every run starts with: no prompts, overwrite, quiet except errors, progress on stdout. */
export const FFMPEG_COMMON_ARGS = [
  '-nostdin',
  '-y',
  '-hide_banner',
  '-loglevel',
  'error',
  '-progress',
  'pipe:1',
  '-nostats',
] as const;

export interface FfmpegRunOptions {
  signal?: AbortSignal;
  /** Seconds of output the run is expected to write; progress is out_time against it. */
  expectedSeconds?: number | null;
  /** Fraction 0..1 of this run. */
  onProgress?: (fraction: number) => void;
  /** Turns ffmpeg's messages into words for the person (for example temp paths into `files[0]`). */
  describe?: (line: string) => string;
}

const STDERR_KEEP = 16 * 1024;

/** Lines ffmpeg ends most failures with that say nothing about the cause. */
const GENERIC_LINE =
  /^(Conversion failed!|Error initializing output stream|Could not write header for output file|Error while opening encoder|Exiting normally)/;

/** The line of ffmpeg's stderr that best says why it failed: the last one that is not a generic trailer. */
export function lastErrorLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const useful = lines.filter((line) => !GENERIC_LINE.test(line));
  const line = useful.at(-1) ?? lines.at(-1) ?? 'ffmpeg failed without a message';
  // Drop the "[libx264 @ 0x1deb2f00] " context prefix: the address means nothing to people.
  return line.replace(/^\[([^\]@]+?) @ 0x[0-9a-f]+\]\s*/i, '$1: ');
}

/**
 * Runs ffmpeg with an argument array (never a shell). Resolves when it exits 0; a non-zero exit is the
 * input's fault (EngineInputError with ffmpeg's last error line); an abort kills it (SIGKILL) and rejects
 * with AbortError once the process is gone.
 */
export function runFfmpeg(binary: string, args: readonly string[], options: FfmpegRunOptions = {}) {
  return spawnFfmpeg(binary, [...FFMPEG_COMMON_ARGS, ...args], options, true);
}

/**
 * Runs ffmpeg and returns its stderr whatever the exit code (probing with `-i file` and no output always
 * exits 1). Aborts like runFfmpeg.
 */
export function ffmpegStderr(binary: string, args: readonly string[], signal?: AbortSignal) {
  return spawnFfmpeg(binary, ['-nostdin', '-hide_banner', ...args], { signal }, false);
}

function spawnFfmpeg(
  binary: string,
  args: readonly string[],
  options: FfmpegRunOptions,
  failOnExit: boolean,
): Promise<{ stderr: string }> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(new AbortError(signal.reason));
      return;
    }
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    let pending = '';
    let settled = false;
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) progressLine(line.trim(), options);
    });

    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ stderr });
    };
    child.on('error', (error) => finish(new Error(`ffmpeg could not start (${binary}): ${error.message}`)));
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) return finish(new AbortError(signal.reason));
      if (!failOnExit || code === 0) return finish(null);
      if (code === null) return finish(new Error(`ffmpeg was stopped by ${killedBy ?? 'a signal'}.`));
      const line = lastErrorLine(stderr);
      return finish(new EngineInputError(options.describe ? options.describe(line) : line));
    });
  });
}

/** `out_time_us=<microseconds>` of `-progress pipe:1` (ffmpeg 4.x also writes out_time_ms, in µs too). */
function progressLine(line: string, options: FfmpegRunOptions): void {
  const expected = options.expectedSeconds;
  if (!options.onProgress) return;
  if (line === 'progress=end') {
    options.onProgress(1);
    return;
  }
  if (!expected || expected <= 0) return;
  const match = /^out_time_us=(\d+)$/.exec(line);
  if (!match) return;
  const seconds = Number(match[1]) / 1_000_000;
  options.onProgress(Math.min(1, Math.max(0, seconds / expected)));
}
