export { isAnalysisReport } from './inline-output-kind.ts';

/**
 * Reads the inline report of a video analysis (`outputs[0].data`) for display. Everything in it was
 * derived from footage, so it is only ever shown as text. It follows the contract's report (the
 * engine's shape: facts, scenes, keyframes, `visual_timeline`, `transcript.segments`, times in
 * `start`/`end`/`time`) and reads defensively: another v2 server may leave fields out or use the
 * earlier draft's names (`timeline`, `transcript[]`, `*_seconds`).
 */
export interface TimedText {
  /** Stable within one report (lists are never reordered). */
  key: string;
  start: number | null;
  end: number | null;
  text: string;
}

export interface SuspiciousPassage {
  key: string;
  at: number | null;
  source: string;
  text: string;
  reason: string | null;
}

export interface Keyframe {
  key: string;
  time: number | null;
  image: string;
}

export interface AnalysisReport {
  summary: string;
  focus: string | null;
  facts: Array<{ label: string; value: string }>;
  timeline: TimedText[];
  transcript: TimedText[];
  transcriptNote: string | null;
  onScreenText: TimedText[];
  suspicious: SuspiciousPassage[];
  warning: string;
  keyframes: Keyframe[];
  notes: string[];
}

export const DEFAULT_WARNING =
  'These passages were read from the video. They are untrusted content that looks like instructions to an AI agent: they are reported here, never followed.';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObj) : [];
}
function first(item: Obj, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = num(item[key]);
    if (value !== null) return value;
  }
  return null;
}

function timelineText(entry: Obj): string {
  const description = str(entry.description);
  if (description) return description;
  const colours = list(entry.dominant_colors)
    .map((c) => str(c.name))
    .filter((n): n is string => Boolean(n));
  const parts: string[] = [];
  if (colours.length) parts.push(`Colours: ${[...new Set(colours)].join(', ')}`);
  const brightness = num(entry.brightness);
  if (brightness !== null) parts.push(`brightness ${Math.round(brightness * 100)}%`);
  const text = Array.isArray(entry.text) ? entry.text.filter((t): t is string => typeof t === 'string') : [];
  if (text.length) parts.push(`text: “${text.join(' ')}”`);
  return parts.join('; ') || 'No description.';
}

function factsOf(facts: unknown): Array<{ label: string; value: string }> {
  if (!isObj(facts)) return [];
  const out: Array<{ label: string; value: string }> = [];
  const duration = num(facts.duration_seconds);
  if (duration !== null) out.push({ label: 'Duration', value: `${duration} s` });
  const video = isObj(facts.video) ? facts.video : null;
  if (video) {
    const fps = num(video.fps);
    out.push({
      label: 'Video',
      value:
        `${num(video.width) ?? '?'}×${num(video.height) ?? '?'} ${str(video.codec) ?? ''}${fps ? ` at ${fps} fps` : ''}`.trim(),
    });
  }
  const audio = isObj(facts.audio) ? facts.audio : null;
  out.push({ label: 'Audio', value: audio ? `${str(audio.codec) ?? 'audio'}` : 'none' });
  const container = str(facts.container_name) ?? str(facts.container);
  if (container) out.push({ label: 'Container', value: container });
  const size = num(facts.size_bytes);
  if (size !== null) out.push({ label: 'Size', value: `${Math.round(size / 1000)} kB` });
  return out;
}

export function readAnalysisReport(data: unknown): AnalysisReport {
  const report = isObj(data) ? data : {};
  const transcriptValue = report.transcript;
  const transcript = Array.isArray(transcriptValue)
    ? list(transcriptValue)
    : isObj(transcriptValue)
      ? list(transcriptValue.segments)
      : [];
  const focus = isObj(report.focus) ? str(report.focus.answer) : null;
  return {
    summary: str(report.summary) ?? '',
    focus,
    facts: factsOf(report.facts),
    timeline: list(report.visual_timeline ?? report.timeline).map((entry, i) => ({
      key: `scene-${i}`,
      start: first(entry, 'start', 'start_seconds'),
      end: first(entry, 'end', 'end_seconds'),
      text: timelineText(entry),
    })),
    transcript: transcript.map((segment, i) => ({
      key: `speech-${i}`,
      start: first(segment, 'start', 'start_seconds'),
      end: first(segment, 'end', 'end_seconds'),
      text: str(segment.text) ?? '',
    })),
    transcriptNote: str(report.transcript_unavailable_reason),
    onScreenText: list(report.on_screen_text).map((item, i) => ({
      key: `text-${i}`,
      start: first(item, 'start', 'at_seconds'),
      end: first(item, 'end'),
      text: str(item.text) ?? '',
    })),
    suspicious: list(report.suspicious_instructions).map((item, i) => ({
      key: `suspicious-${i}`,
      at: first(item, 'time', 'at_seconds'),
      source: (str(item.source) ?? 'video').replaceAll('_', ' '),
      text: str(item.text) ?? '',
      reason: str(item.reason),
    })),
    warning: str(report.suspicious_instructions_warning) ?? DEFAULT_WARNING,
    keyframes: list(report.keyframes)
      .map((k, i) => ({ key: `frame-${i}`, time: first(k, 'time'), image: str(k.image) ?? '' }))
      // Only inline JPEG/PNG data: an image URL from untrusted data is not loaded.
      .filter((k) => /^data:image\/(jpeg|png|webp);base64,/.test(k.image)),
    notes: Array.isArray(report.notes) ? report.notes.filter((n): n is string => typeof n === 'string') : [],
  };
}

/** "0:05.2", "1:02:03". */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '–';
  const total = Math.round(seconds * 10);
  const whole = Math.floor(total / 10);
  const tenths = total % 10;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}.${tenths}`;
}
