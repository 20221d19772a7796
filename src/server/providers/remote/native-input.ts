import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { PriceUnit } from '../../domain/catalog/types.ts';
import { UNIT_NAMES } from '../../domain/jobs/pricing.ts';
import type { InputFile, RunContext } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { mediaDurationSeconds } from './media-duration.ts';

/*
 * Helpers shared by the fal and Replicate request mappings: both take the same common request fields
 * and turn them into a model family's native input (nearest allowed aspect ratio or duration, merged
 * provider_options, input files by URL), and both read progress out of model logs.
 */

export type Json = Record<string, unknown>;

/** The common request fields of every tool (already validated by the contract). */
export interface CommonBody {
  prompt?: string;
  aspect_ratio?: string;
  duration?: number;
  files?: { url: string }[];
  text?: string;
  voice?: string;
  audio_url?: string;
  language?: string;
  provider_options?: Record<string, Json>;
}

export function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `overrides` on top of `base`; nested plain objects merge (so `voice_setting: { speed }` keeps the
 * voice we derived), anything else is replaced.
 */
export function mergeOptions(base: Json, overrides: Json | undefined): Json {
  const merged: Json = { ...base };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeOptions(current, value) : value;
  }
  return merged;
}

/** Width over height of a `w:h` ratio. */
export function ratioOf(aspect: string): number {
  const [w = 1, h = 1] = aspect.split(':').map(Number);
  return w / h;
}

/** The allowed `w:h` closest to `aspect` (compared on a log scale, so 2:1 and 1:2 are equally far from 1:1). */
export function nearestAspect(aspect: string, allowed: readonly string[]): string {
  const target = Math.log(ratioOf(aspect));
  let best = allowed[0] ?? aspect;
  for (const candidate of allowed) {
    if (Math.abs(Math.log(ratioOf(candidate)) - target) < Math.abs(Math.log(ratioOf(best)) - target)) {
      best = candidate;
    }
  }
  return best;
}

/** The allowed value closest to `value`; a tie goes to the longer one (the person asked for at least that). */
export function nearestNumber(value: number, allowed: readonly number[]): number {
  let best = allowed[0] ?? value;
  for (const candidate of allowed) {
    const distance = Math.abs(candidate - value);
    const bestDistance = Math.abs(best - value);
    if (distance < bestDistance || (distance === bestDistance && candidate > best)) best = candidate;
  }
  return best;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A number from a native field that may hold it as a number or a string such as `"10"` or `"8s"`. */
export function positiveNumber(value: unknown): number | null {
  const parsed =
    typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : NaN;
  return Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}

/** `pt-BR` -> `pt`: both providers' speech models take ISO 639-1 codes. */
export function primaryLanguage(tag: string): string {
  return (tag.split('-')[0] ?? tag).toLowerCase();
}

/**
 * The last percentage a model printed (tqdm bars, "45% done"), 0..1, or null. Only the tail is read:
 * providers resend the whole log on every poll.
 */
export function progressFromLogs(logs: string): number | null {
  const matches = [...logs.slice(-2000).matchAll(/(\d{1,3}(?:\.\d+)?)\s?%/g)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return null;
  const percent = Number(last);
  return percent >= 0 && percent <= 100 ? percent / 100 : null;
}

/** `name` when it is a plain file name with an extension (provider-chosen names are not trusted further). */
export function safeFileName(name: unknown): string | null {
  return typeof name === 'string' && /^[\w.-]{1,200}$/.test(name) && /\.\w+$/.test(name) ? name : null;
}

/** A file name for an output URL: its last path segment, or `fallback` when it has none. */
export function nameFromUrl(url: string, fallback: string): string {
  try {
    return safeFileName(decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')) ?? fallback;
  } catch {
    return fallback;
  }
}

/**
 * How an adapter hands an input file to its provider when the provider cannot fetch our URL: inline as
 * a `data:` URI up to the provider's documented limit, else through the provider's own storage.
 */
export interface ProviderStorage {
  /** Largest file sent inline as a `data:` URI, in bytes (the provider's documented limit, or below). */
  inlineMaxBytes: number;
  /** Streams the file to the provider's storage and answers the URL the provider reads it from. */
  upload(file: InputFile, signal: AbortSignal): Promise<string>;
}

/** The URL a provider reads an input from: its own public URL, a small `data:` URI, or an upload. */
export async function providerFileUrl(
  file: InputFile,
  storage: ProviderStorage,
  signal: AbortSignal,
): Promise<string> {
  if (file.publicUrl) return file.publicUrl;
  if (file.size !== null && file.size <= storage.inlineMaxBytes) {
    const bytes = await buffer(await file.open(signal));
    return `data:${file.contentType};base64,${bytes.toString('base64')}`;
  }
  return storage.upload(file, signal);
}

/** A caller's file whose play time is not known is read up to this size to learn it from its header. */
const PLAY_TIME_READ_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The play time of an audio or video input, for billing by its length: known for our own files (measured
 * when stored); a caller's file is read, when it is small enough to hold, and its header parsed.
 */
export async function playTimeOf(file: InputFile, signal: AbortSignal): Promise<number | null> {
  const known = await file.durationSeconds();
  if (known !== null || file.size === null || file.size > PLAY_TIME_READ_MAX_BYTES) return known;
  return mediaDurationSeconds(await buffer(await file.open(signal)));
}

/** The kind of a content type's media: `image`, `video`, `audio` or `other`. */
export function mediaKind(contentType: string): InputFile['kind'] {
  const family = contentType.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : 'other';
}

/**
 * An input URL as an InputFile. Runs give adapters `context.inputFile` (streamed from storage); a context
 * without it (tests, tools that read whole files) falls back to reading the bytes once.
 */
export async function inputFileOf(context: RunContext, url: string): Promise<InputFile> {
  if (context.inputFile) return context.inputFile(url);
  const { body, contentType } = await context.readInput(url);
  const type = contentType.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
  return {
    url,
    publicUrl: null,
    contentType: type,
    kind: mediaKind(type),
    size: body.length,
    fileName: nameFromUrl(url, 'input'),
    open: async () => Readable.from([body]),
    durationSeconds: async () => (mediaKind(type) === 'image' ? null : mediaDurationSeconds(body)),
  };
}

/** A transcript in the shape the local engine returns (outputs[0] of a transcription job). */
export interface TranscriptOutput {
  text: string;
  language: string;
  duration_seconds: number;
  segments: { start: number; end: number; text: string }[];
}

/** Where an input file goes in a model's native input. */
export interface FileSlot {
  /** The native field, for example `image_url`. */
  field: string;
  /** The kind of file the field takes; files are matched to slots by kind, in request order. */
  kind: 'image' | 'video' | 'audio';
  /** The common field the URL comes from: `files` (default) or the transcription `audio_url`. */
  source?: 'files' | 'audio_url';
  /** Without it the model cannot run: the job is refused before anything is submitted. */
  required?: boolean;
}

/** How one model family takes the common request fields and what its results are billed for. */
export interface Family {
  tool: 'image' | 'video' | 'speech' | 'music' | 'transcription';
  /** Native fields derived from the common ones (files excluded). */
  fields(body: CommonBody): Json;
  files?: readonly FileSlot[];
  /** Seconds of output the sent input asks for (video, music), when the input decides it. */
  seconds?(sent: Json): number | null;
  /** Images the sent input asks for (before the provider answers). */
  count?(sent: Json): number;
}

/** The family of a provider model id (own keys only: `constructor` is not a model). */
export function familyIn(table: Record<string, Family>, modelId: string): Family | undefined {
  return Object.hasOwn(table, modelId) ? table[modelId] : undefined;
}

/**
 * Deadline of a submit. Inputs go by URL or are uploaded beforehand, so the request itself is small; a
 * small file may still be inline (a few MB at most).
 */
export const SUBMIT_TIMEOUT_MS = 2 * 60_000;

/** What a job is billed from. */
export interface BillingFacts {
  body: CommonBody;
  /** The native input as sent: derived fields with provider_options on top. */
  sent: Json;
  /** The offer's typical units: the last resort when nothing says how long a result is. */
  typicalUnits: number;
  /** Length of the input media, when it was read at submit (lipsync, upscale, transcription). */
  inputSeconds?: number;
  /** Set once the provider answered. */
  result?: { outputCount: number; seconds?: number; transcriptSeconds?: number };
}

/**
 * Billed units in our unit names (images, seconds, thousand_characters, minutes), and `jobs: 1` when
 * the offer is priced per job.
 */
export function unitsOf(family: Family, facts: BillingFacts, unit?: PriceUnit): Record<string, number> {
  const units = toolUnits(family, facts);
  return unit === 'job' ? { ...units, jobs: 1 } : units;
}

function toolUnits(family: Family, facts: BillingFacts): Record<string, number> {
  const { body, sent, result } = facts;
  switch (family.tool) {
    case 'image':
      return { images: result ? result.outputCount : (family.count?.(sent) ?? 1) };
    case 'video':
      return {
        seconds:
          family.seconds?.(sent) ??
          result?.seconds ??
          facts.inputSeconds ??
          body.duration ??
          facts.typicalUnits,
      };
    case 'music':
      return { seconds: family.seconds?.(sent) ?? result?.seconds ?? body.duration ?? facts.typicalUnits };
    case 'speech':
      return { thousand_characters: (body.text?.length ?? 0) / 1000 };
    case 'transcription':
      return { minutes: (result?.transcriptSeconds ?? facts.inputSeconds ?? facts.typicalUnits * 60) / 60 };
  }
}

/** The units of an offer's price unit among `units`, or null when the family does not know them. */
export function unitsFor(unit: PriceUnit, units: Record<string, number>): number | null {
  return units[UNIT_NAMES[unit].billed] ?? null;
}

/** The native input of a request: derived fields, input files, then provider_options on top. */
export async function nativeInput(
  family: Family,
  provider: string,
  modelId: string,
  body: CommonBody,
  context: RunContext,
  storage: ProviderStorage,
): Promise<{ sent: Json; inputSeconds?: number }> {
  const derived: Json = { ...family.fields(body) };
  const slots = family.files ?? [];
  const usesFiles = slots.some((slot) => slot.source !== 'audio_url');
  const files = usesFiles
    ? await Promise.all((body.files ?? []).map((f) => inputFileOf(context, f.url)))
    : [];
  const used = new Set<number>();
  const seconds: number[] = [];
  for (const slot of slots) {
    let file: InputFile | undefined;
    if (slot.source === 'audio_url') {
      file = body.audio_url ? await inputFileOf(context, body.audio_url) : undefined;
    } else {
      // The first unused file of the slot's kind; a file of unknown type fills the slot in order.
      let index = files.findIndex((f, i) => !used.has(i) && f.kind === slot.kind);
      if (index < 0) index = files.findIndex((f, i) => !used.has(i) && f.kind === 'other');
      if (index >= 0) {
        used.add(index);
        file = files[index];
      }
    }
    if (!file) {
      if (slot.required) {
        const where = slot.source === 'audio_url' ? 'audio_url' : 'files';
        throw new ProviderError(
          'provider_rejected',
          `${modelId} needs ${articleOf(slot.kind)} ${slot.kind} in ${where}.`,
        );
      }
      continue;
    }
    derived[slot.field] = await providerFileUrl(file, storage, context.signal);
    const length = slot.kind === 'image' ? null : await playTimeOf(file, context.signal);
    if (length !== null) seconds.push(length);
  }
  const sent = mergeOptions(derived, body.provider_options?.[provider]);
  // Lipsync cuts to the shorter of its video and audio; other models read one medium.
  return seconds.length ? { sent, inputSeconds: Math.min(...seconds) } : { sent };
}

function articleOf(kind: string): string {
  return kind === 'image' || kind === 'audio' ? 'an' : 'a';
}

/** Native fields without the ones left undefined (so the model's own defaults apply). */
export function defined(fields: Record<string, unknown>): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
