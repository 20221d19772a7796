import type { z } from 'zod';
import type { PresetListQuery } from '../../../contract/presets.ts';
import { decodeJsonCursor, encodeJsonCursor } from '../page-cursor.ts';
import { IMAGE_STYLE_PRESETS } from './image-style-presets.ts';
import { LOCAL_VOICE_PRESETS } from './local-voice-presets.ts';
import type { PresetRecord } from './preset-record.ts';
import { PROVIDER_VOICE_PRESETS } from './provider-voice-presets.ts';

export type PresetFilter = Omit<z.output<typeof PresetListQuery>, 'limit' | 'cursor'>;

const lower = (value: string) => value.toLowerCase();

/** Whether a preset passes every filter of a listing (spec 4.7 and the contract's PresetListQuery). */
export function matchesFilter(preset: PresetRecord, filter: PresetFilter): boolean {
  if (filter.type?.length && !filter.type.includes(preset.type)) return false;
  if (filter.namespace?.length && !filter.namespace.includes(preset.namespace)) return false;
  if (filter.status?.length && !filter.status.includes(preset.status)) return false;
  if (filter.tool?.length) {
    // A broken mapping ({ _error }) is no fragment a request can use.
    const usable = filter.tool.some((tool) => {
      const fragment = preset.tools[tool];
      return fragment !== undefined && !('_error' in fragment);
    });
    if (!usable) return false;
  }
  if (filter.metadata?.length) {
    // Same key: any of its values; different keys: all of them. Values compare without case.
    const wanted = new Map<string, string[]>();
    for (const { key, value } of filter.metadata) wanted.set(key, [...(wanted.get(key) ?? []), lower(value)]);
    for (const [key, values] of wanted) {
      const have = preset.metadata[key];
      const haveValues = (have === undefined ? [] : Array.isArray(have) ? have : [have]).map(lower);
      if (!values.some((value) => haveValues.includes(value))) return false;
    }
  }
  if (filter.q) {
    const text = lower(`${preset.name} ${preset.description}`);
    if (
      !lower(filter.q)
        .split(/\s+/)
        .every((word) => text.includes(word))
    )
      return false;
  }
  return true;
}

const collator = new Intl.Collator('en');

/**
 * Where a preset stands in the listing, lowest first: those that run on this server before those that do
 * not (a provider without its key), and within each the active before the deprecated. A newcomer's first
 * page is then voices and styles they can use, not a deprecated voice of a provider that is not enabled.
 */
export type PresetRank = (preset: PresetRecord) => number;

/** Ranks presets by whether they run here (`runsHere`) and whether they are deprecated. */
export function rankByUse(runsHere: (preset: PresetRecord) => boolean): PresetRank {
  return (preset) => (runsHere(preset) ? 0 : 2) + (preset.status === 'deprecated' ? 1 : 0);
}

interface Position {
  rank: number;
  name: string;
  id: string;
}

/** Listing order: by rank, then by name as people sort words, then id (names may repeat across providers). */
const before = (a: Position, b: Position) =>
  a.rank - b.rank || collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The cursor of a page: the last preset's (rank, name, id), opaque to clients. */
function encodeCursor(position: Position): string {
  return encodeJsonCursor([position.rank, position.name, position.id]);
}

function decodeCursor(cursor: string): Position {
  return decodeJsonCursor(cursor, (value) => {
    const [rank, name, id] = Array.isArray(value) ? value : [];
    return typeof rank === 'number' && typeof name === 'string' && typeof id === 'string'
      ? { rank, name, id }
      : null;
  });
}

/** The presets this server knows, in listing order (`rank` first, by default all equal), found by id. */
export class PresetCatalog {
  private readonly sorted: readonly (Position & { preset: PresetRecord })[];
  private readonly byId: ReadonlyMap<string, PresetRecord>;

  constructor(presets: readonly PresetRecord[], rank: PresetRank = () => 0) {
    this.sorted = presets
      .map((preset) => ({ rank: rank(preset), name: preset.name, id: preset.id, preset }))
      .sort(before);
    this.byId = new Map(presets.map((p) => [p.id, p]));
    if (this.byId.size !== presets.length) throw new Error('Two presets share an id.');
  }

  get(id: string): PresetRecord | undefined {
    return this.byId.get(id);
  }

  /** One page of the presets that match, after `cursor` (the previous page's next_cursor). */
  page(filter: PresetFilter, limit: number, cursor?: string) {
    const after = cursor ? decodeCursor(cursor) : null;
    const start = after ? this.sorted.findIndex((p) => before(p, after) > 0) : 0;
    const data: PresetRecord[] = [];
    let more = false;
    let last: Position | null = null;
    for (let i = start < 0 ? this.sorted.length : start; i < this.sorted.length; i++) {
      const entry = this.sorted[i]!;
      if (!matchesFilter(entry.preset, filter)) continue;
      if (data.length === limit) {
        more = true;
        break;
      }
      data.push(entry.preset);
      last = entry;
    }
    return { data, next_cursor: more && last ? encodeCursor(last) : null };
  }
}

/** Every preset of this server. Presets of other providers are added here as data (PresetRecord). */
export const BUILT_IN_PRESETS: readonly PresetRecord[] = [
  ...LOCAL_VOICE_PRESETS,
  ...PROVIDER_VOICE_PRESETS,
  ...IMAGE_STYLE_PRESETS,
];
export const PRESETS = new PresetCatalog(BUILT_IN_PRESETS);
