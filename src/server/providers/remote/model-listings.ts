import type { Config } from '../../config.ts';
import { modelLifecycle, offerLifecycle } from '../../domain/catalog/lifecycle.ts';
import type { ModelDefinition } from '../../domain/catalog/types.ts';

/*
 * Whether each provider still serves the model ids the catalog sends it, asked of the provider's own
 * listing API (read-only; nothing is run or billed):
 * - fal: Platform API model search, `GET {FAL_API_URL}/models?endpoint_id=…` (up to 50 ids a request),
 *   `Authorization: Key …`, answering `{ models: [{ endpoint_id, metadata: { status } }], has_more,
 *   next_cursor }`; an id it does not answer is gone, one with status `deprecated` is on its way out;
 * - Replicate: `GET {REPLICATE_API_URL}/models/{owner}/{name}` (and `/versions/{id}` for a pinned
 *   version), `Authorization: Bearer …`; 404 is gone;
 * - OpenAI: `GET {OPENAI_BASE_URL}/models`, `Authorization: Bearer …`, `{ data: [{ id, shutdown_date? }] }`;
 * - ElevenLabs: `GET {ELEVENLABS_API_URL}/models`, `xi-api-key`, `[{ model_id }]`. It lists the speech
 *   models only: music and transcription ids cannot be checked there and are reported as such.
 * Also ElevenLabs' voice listing, for the sample each voice has (elevenLabsVoiceSamples).
 */

export type ListingConfig = Pick<
  Config,
  | 'FAL_KEY'
  | 'FAL_API_URL'
  | 'REPLICATE_API_TOKEN'
  | 'REPLICATE_API_URL'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'ELEVENLABS_API_KEY'
  | 'ELEVENLABS_API_URL'
>;

/** What one provider said of the ids asked about. */
export interface ListingReport {
  provider: string;
  /** Null when the provider was asked; otherwise why it could not be (no key, an HTTP failure). */
  notChecked: string | null;
  /** Ids the provider does not serve. */
  missing: string[];
  /** Ids it serves but marks as on their way out (with the date when it gives one). */
  deprecated: { id: string; date: string | null }[];
  /** Ids its listing API cannot answer for. */
  unlisted: string[];
}

const TIMEOUT_MS = 30_000;

async function getJson(url: string, headers: Record<string, string>, signal?: AbortSignal) {
  const response = await fetch(url, {
    headers: { accept: 'application/json', ...headers },
    signal: signal
      ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)])
      : AbortSignal.timeout(TIMEOUT_MS),
  });
  if (response.status === 404) return { status: 404, body: null as unknown };
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered HTTP ${response.status}`);
  return { status: response.status, body: (await response.json()) as unknown };
}

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;
const report = (provider: string, partial: Partial<ListingReport> = {}): ListingReport => ({
  provider,
  notChecked: null,
  missing: [],
  deprecated: [],
  unlisted: [],
  ...partial,
});

export async function falListing(config: ListingConfig, ids: string[], signal?: AbortSignal) {
  if (!config.FAL_KEY) return report('fal', { notChecked: 'FAL_KEY is not set.' });
  const found = new Map<string, string | null>();
  for (let i = 0; i < ids.length; i += 50) {
    const query = new URLSearchParams(ids.slice(i, i + 50).map((id) => ['endpoint_id', id]));
    let cursor: string | null = null;
    do {
      if (cursor) query.set('cursor', cursor);
      const { body } = await getJson(
        joinUrl(config.FAL_API_URL, `/models?${query}`),
        { authorization: `Key ${config.FAL_KEY}` },
        signal,
      );
      const page = (body ?? {}) as {
        models?: { endpoint_id?: string; metadata?: { status?: string } }[];
        has_more?: boolean;
        next_cursor?: string | null;
      };
      for (const m of page.models ?? [])
        if (m.endpoint_id) found.set(m.endpoint_id, m.metadata?.status ?? null);
      cursor = page.has_more ? (page.next_cursor ?? null) : null;
    } while (cursor);
  }
  return report('fal', {
    missing: ids.filter((id) => !found.has(id)),
    deprecated: ids.filter((id) => found.get(id) === 'deprecated').map((id) => ({ id, date: null })),
  });
}

export async function replicateListing(config: ListingConfig, ids: string[], signal?: AbortSignal) {
  if (!config.REPLICATE_API_TOKEN)
    return report('replicate', { notChecked: 'REPLICATE_API_TOKEN is not set.' });
  const missing: string[] = [];
  for (const id of ids) {
    const [name = '', version] = id.split(':');
    const [owner, model] = name.split('/');
    const path = `/models/${encodeURIComponent(owner ?? '')}/${encodeURIComponent(model ?? '')}${
      version ? `/versions/${encodeURIComponent(version)}` : ''
    }`;
    const { status } = await getJson(
      joinUrl(config.REPLICATE_API_URL, path),
      { authorization: `Bearer ${config.REPLICATE_API_TOKEN}` },
      signal,
    );
    if (status === 404) missing.push(id);
  }
  return report('replicate', { missing });
}

export async function openaiListing(config: ListingConfig, ids: string[], signal?: AbortSignal) {
  if (!config.OPENAI_API_KEY) return report('openai', { notChecked: 'OPENAI_API_KEY is not set.' });
  const { body } = await getJson(
    joinUrl(config.OPENAI_BASE_URL, '/models'),
    { authorization: `Bearer ${config.OPENAI_API_KEY}` },
    signal,
  );
  const listed = new Map(
    ((body as { data?: { id?: string; shutdown_date?: string | null }[] })?.data ?? []).map((m) => [
      m.id,
      m.shutdown_date ?? null,
    ]),
  );
  return report('openai', {
    missing: ids.filter((id) => !listed.has(id)),
    deprecated: ids.filter((id) => listed.get(id)).map((id) => ({ id, date: listed.get(id) ?? null })),
  });
}

/** ElevenLabs' /models lists text-to-speech models; `speechIds` are checked, the rest reported unlisted. */
export async function elevenLabsListing(
  config: ListingConfig,
  ids: string[],
  speechIds: ReadonlySet<string>,
  signal?: AbortSignal,
) {
  if (!config.ELEVENLABS_API_KEY)
    return report('elevenlabs', { notChecked: 'ELEVENLABS_API_KEY is not set.' });
  const { body } = await getJson(
    joinUrl(config.ELEVENLABS_API_URL, '/models'),
    { 'xi-api-key': config.ELEVENLABS_API_KEY },
    signal,
  );
  const listed = new Set(((body as { model_id?: string }[] | null) ?? []).map((m) => m.model_id));
  const checkable = ids.filter((id) => speechIds.has(id));
  return report('elevenlabs', {
    missing: checkable.filter((id) => !listed.has(id)),
    unlisted: ids.filter((id) => !speechIds.has(id)),
  });
}

/**
 * The sample ElevenLabs publishes for each voice of the account: `GET {ELEVENLABS_API_URL}/voices`
 * (`xi-api-key`) answers `{ voices: [{ voice_id, name, category, labels, preview_url, ... }] }`, every voice
 * in one answer; `show_legacy=true` adds the earlier default voices (Rachel, Adam, ...), which the API
 * otherwise leaves out. `preview_url` is a public MP3 on ElevenLabs' storage. Read-only: nothing is billed.
 */
export async function elevenLabsVoiceSamples(
  config: Pick<ListingConfig, 'ELEVENLABS_API_KEY' | 'ELEVENLABS_API_URL'>,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  if (!config.ELEVENLABS_API_KEY) throw new Error('ELEVENLABS_API_KEY is not set.');
  const { status, body } = await getJson(
    joinUrl(config.ELEVENLABS_API_URL, '/voices?show_legacy=true'),
    { 'xi-api-key': config.ELEVENLABS_API_KEY },
    signal,
  );
  if (status === 404) throw new Error('/voices answered HTTP 404');
  const voices = (body as { voices?: unknown } | null)?.voices;
  if (!Array.isArray(voices)) throw new Error('/voices answered no voices list');
  const samples = new Map<string, string>();
  for (const voice of voices as { voice_id?: unknown; preview_url?: unknown }[]) {
    const url = typeof voice?.preview_url === 'string' ? voice.preview_url : '';
    // Only web addresses are passed on to browsers (a listing is data, not something to trust blindly).
    if (typeof voice.voice_id === 'string' && /^https?:\/\//i.test(url)) samples.set(voice.voice_id, url);
  }
  return samples;
}

/** One provider's report, or why it could not be made (a failed request is reported, not thrown). */
export async function safely(provider: string, check: () => Promise<ListingReport>): Promise<ListingReport> {
  try {
    return await check();
  } catch (error) {
    return report(provider, { notChecked: `asking failed: ${(error as Error).message}` });
  }
}

/**
 * Every external offer of `models` that is not retired, grouped by provider, asked of its provider.
 * Retired offers are not asked about: they are expected to be gone.
 */
export async function checkCatalog(
  config: ListingConfig,
  models: readonly ModelDefinition[],
  today: string,
  signal?: AbortSignal,
): Promise<ListingReport[]> {
  const ids = new Map<string, Set<string>>();
  const speech = new Set<string>();
  for (const model of models) {
    if (modelLifecycle(model, today).status === 'retired') continue;
    for (const offer of model.offers) {
      if (offer.provider === 'local' || offerLifecycle(offer, today).status === 'retired') continue;
      ids.set(offer.provider, (ids.get(offer.provider) ?? new Set()).add(offer.providerModelId));
      if (model.tool === 'speech') speech.add(offer.providerModelId);
    }
  }
  const of = (provider: string) => [...(ids.get(provider) ?? [])].sort();
  return Promise.all([
    safely('fal', () => falListing(config, of('fal'), signal)),
    safely('replicate', () => replicateListing(config, of('replicate'), signal)),
    safely('openai', () => openaiListing(config, of('openai'), signal)),
    safely('elevenlabs', () => elevenLabsListing(config, of('elevenlabs'), speech, signal)),
  ]);
}

/** The reports as lines for a terminal: what is missing, what is on its way out, what was not checked. */
export function reportLines(reports: readonly ListingReport[]): string[] {
  const lines: string[] = [];
  const rows: [string, string, string][] = [];
  for (const r of reports) {
    for (const id of r.missing) rows.push([r.provider, id, 'missing']);
    for (const d of r.deprecated)
      rows.push([r.provider, d.id, d.date ? `shuts down ${d.date}` : 'deprecated']);
  }
  if (rows.length) {
    const width = (i: 0 | 1) => Math.max(...rows.map((row) => row[i].length), i === 0 ? 8 : 5);
    const line = (row: [string, string, string]) =>
      `${row[0].padEnd(width(0))}  ${row[1].padEnd(width(1))}  ${row[2]}`;
    lines.push(line(['provider', 'model', 'status']), ...rows.map(line));
  } else if (reports.some((r) => !r.notChecked)) {
    const checked = reports.filter((r) => !r.notChecked).map((r) => r.provider);
    lines.push(`Every catalog id of ${checked.join(', ')} exists.`);
  } else {
    lines.push('No provider was checked: set a provider key to check its ids.');
  }
  for (const r of reports) {
    if (r.notChecked) lines.push(`${r.provider}: not checked: ${r.notChecked}`);
    if (r.unlisted.length)
      lines.push(`${r.provider}: no listing API for ${r.unlisted.join(', ')}: not checked.`);
  }
  return lines;
}
