import type { Job } from '../../../../contract/jobs.ts';

const MAX = 140;

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX ? `${flat.slice(0, MAX - 1)}…` : flat;
}

const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

function fileName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
  } catch {
    return url;
  }
}

/**
 * One line saying what a job was asked to do: its prompt or text, else what it works on (the input
 * file, the ffmpeg operations, the render layers). Null when the input names nothing to show.
 */
export function jobExcerpt(job: Job): string | null {
  const input = job.input;
  const text = str(input.prompt) ?? str(input.text);
  if (text) return shorten(text);
  const url = str(input.video_url) ?? str(input.audio_url);
  if (url) return shorten(fileName(url));
  if (Array.isArray(input.operations)) {
    const ops = input.operations.map((op) => (op && typeof op === 'object' && 'op' in op ? op.op : '?'));
    return shorten(`ffmpeg: ${ops.join(' → ')}`);
  }
  if (Array.isArray(input.layers)) return `Render of ${input.layers.length} layers`;
  if (Array.isArray(input.steps)) return `Pipeline of ${input.steps.length} steps`;
  const files = Array.isArray(input.files) ? input.files : [];
  const first = files[0] as { url?: unknown } | undefined;
  if (first && typeof first.url === 'string') return shorten(fileName(first.url));
  return null;
}
