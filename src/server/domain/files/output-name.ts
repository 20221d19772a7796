import { FILE_NAME_MAX } from '../../../contract/values.ts';

/** How many characters of the prompt a generated file's name keeps (whole words). */
const NAME_PROMPT_CHARS = 48;
/** How much of the prompt a generated file keeps in its metadata, for the card and for search. */
export const KEPT_PROMPT_CHARS = 1000;

/** What a job was asked to make, in the words its caller used: `prompt`, or `text` for speech; else null. */
export function jobPrompt(input: Record<string, unknown>): string | null {
  for (const key of ['prompt', 'text'] as const) {
    const value = input[key];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, KEPT_PROMPT_CHARS);
  }
  return null;
}

/** Lower-case words of plain letters and digits joined by dashes, cut at a word within `max` characters. */
function slug(text: string, max: number): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let out = '';
  for (const word of words) {
    const next = out ? `${out}-${word}` : word;
    if (next.length > max) return out || word.slice(0, max);
    out = next;
  }
  return out;
}

/**
 * The name of a job's output: its prompt's first words and the job's short id, keeping the engine's
 * extension and any number it gave the output (`sketch-2.png` → `a-lighthouse-at-dusk-4e7bfb02-2.png`),
 * so a folder of generated files reads like a library rather than a column of `sketch.png`. A job
 * without a prompt (an upscale, an edit) keeps the engine's name, with the short id.
 */
export function outputFileName(
  job: { id: string; input: Record<string, unknown> },
  engineName: string,
): string {
  // An extension is a dot and a few letters or digits at the end (`.png`, `.mp4`), nothing else.
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(engineName)?.[0].toLowerCase() ?? '';
  const stem = engineName.slice(0, engineName.length - extension.length);
  const number = /[-_](\d{1,3})$/.exec(stem)?.[1];
  const prompt = jobPrompt(job.input);
  const words = (prompt && slug(prompt, NAME_PROMPT_CHARS)) || slug(stem, NAME_PROMPT_CHARS) || 'output';
  const shortId = job.id.replace(/^job_/, '').slice(0, 8);
  const tail = `-${shortId}${number && prompt ? `-${number}` : ''}${extension}`;
  return `${words.slice(0, FILE_NAME_MAX - tail.length)}${tail}`;
}
