import { spawn } from 'node:child_process';
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { POCKETSPHINX_BINARY, type PocketsphinxSetup } from '../../domain/catalog/pocketsphinx-setup.ts';
import { AbortError, checkAborted } from './engine-run.ts';

/** Raw audio the recogniser reads: 16 kHz, mono, signed 16-bit little-endian. */
export const POCKETSPHINX_SAMPLE_RATE = 16_000;
export const POCKETSPHINX_BYTES_PER_SECOND = POCKETSPHINX_SAMPLE_RATE * 2;

const STDERR_KEEP = 8 * 1024;
const PROGRESS_POLL_MS = 200;
/** A word line's end time, `word start end posterior`: how far the printed utterances reach. */
const WORD_END = /^\S+ \d+(?:\.\d+)? (\d+(?:\.\d+)?) \S+$/gm;

/**
 * How far the recogniser has read `file` (Linux: the offset of its descriptor in /proc); null when it
 * cannot be known.
 */
async function readOffset(pid: number, file: string): Promise<number | null> {
  try {
    for (const fd of await readdir(`/proc/${pid}/fd`)) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) !== file) continue;
      const position = /^pos:\s*(\d+)/m.exec(await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8'));
      return position ? Number(position[1]) : null;
    }
  } catch {
    // gone, or no /proc here
  }
  return null;
}

/**
 * Recognises a raw audio file (see POCKETSPHINX_SAMPLE_RATE) and returns what the recogniser printed.
 * `onProgress` gets the seconds of audio done so far: from the offset it has read (Linux) and the word
 * times it prints after each utterance. An abort kills it and rejects with AbortError once it is gone.
 */
export async function runPocketsphinx(
  setup: PocketsphinxSetup,
  rawFile: string,
  options: { signal?: AbortSignal; onProgress?: (seconds: number) => void } = {},
): Promise<string> {
  const { signal } = options;
  checkAborted(signal);
  const file = await realpath(rawFile);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError(signal.reason));
      return;
    }
    const args = [
      ...['-infile', file, '-time', 'yes'],
      ...['-samprate', String(POCKETSPHINX_SAMPLE_RATE)],
      ...['-hmm', path.join(setup.modelDir, 'en-us')],
      ...['-lm', path.join(setup.modelDir, 'en-us.lm.bin')],
      ...['-dict', path.join(setup.modelDir, 'cmudict-en-us.dict')],
    ];
    const child = spawn(setup.binary, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stdout = '';
    let stderr = '';
    let done = 0;
    let settled = false;
    const advance = (seconds: number) => {
      if (seconds <= done) return;
      done = seconds;
      options.onProgress?.(seconds);
    };
    const poll = setInterval(() => {
      if (child.pid === undefined) return;
      void readOffset(child.pid, file).then((offset) => {
        if (offset !== null && !settled) advance(offset / POCKETSPHINX_BYTES_PER_SECOND);
      });
    }, PROGRESS_POLL_MS);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      for (const match of chunk.matchAll(WORD_END)) advance(Number(match[1]));
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });

    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(stdout);
    };
    child.on('error', (error) =>
      finish(new Error(`${POCKETSPHINX_BINARY} could not start (${setup.binary}): ${error.message}`)),
    );
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) return finish(new AbortError(signal.reason));
      if (code === 0) return finish(null);
      const lines = stderr.split('\n').filter((line) => line.trim());
      const reason = lines.findLast((line) => /^(ERROR|FATAL)/.test(line)) ?? lines.at(-1) ?? '';
      const how = code === null ? `stopped by ${killedBy}` : `exit ${code}`;
      return finish(new Error(`${POCKETSPHINX_BINARY} failed (${how}): ${reason}`));
    });
  });
}
