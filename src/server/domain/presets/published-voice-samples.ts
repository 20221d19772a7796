import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger.ts';

/**
 * Reads one provider's voice listing: each voice id with the sample URL the provider publishes for it
 * (voices without one are left out). Given only for providers enabled here (their key is set).
 */
export type VoiceSampleListing = (signal?: AbortSignal) => Promise<ReadonlyMap<string, string>>;

/** Asked again this long after a listing answered (providers add and rename voices rarely). */
const FRESH_MS = 6 * 60 * 60_000;
/** Asked again this long after a listing failed (the provider unreachable, a bad key). */
const RETRY_MS = 5 * 60_000;

interface ProviderState {
  samples: ReadonlyMap<string, string>;
  /** When the listing was last asked (ms since epoch), or null before the first time. */
  askedAt: number | null;
  ok: boolean;
  asking: Promise<void> | null;
}

/**
 * The sample URLs providers publish for their voices, learnt from their own listings rather than made
 * up: read when a preset asks for one (not at start-up, so a server that never shows presets never asks),
 * kept in memory and under DATA_DIR/preset-previews (a restart answers at once, and keeps answering while
 * the provider is unreachable), and asked again after a while. Only enabled providers have a listing, so
 * a provider without its key has no samples here, whatever an earlier run stored.
 */
export class PublishedVoiceSamples {
  private readonly state = new Map<string, ProviderState>();

  constructor(
    private readonly deps: {
      listings: Readonly<Record<string, VoiceSampleListing>>;
      dataDir: string;
      log: Logger;
      now?: () => number;
    },
  ) {
    for (const provider of Object.keys(deps.listings)) {
      this.state.set(provider, { samples: this.stored(provider), askedAt: null, ok: false, asking: null });
    }
  }

  /**
   * The provider's sample URL for a voice, or null when it publishes none or is not enabled here. Known
   * samples answer at once; a listing never asked or gone stale is asked in the background.
   */
  url(provider: string, voice: string): string | null {
    const state = this.state.get(provider);
    if (!state) return null;
    if (this.stale(state)) void this.refresh(provider);
    return state.samples.get(voice) ?? null;
  }

  /** Asks the listing of `provider` (or of every enabled provider) now; one request at a time each. */
  async refresh(provider?: string): Promise<void> {
    const providers = provider ? [provider] : [...this.state.keys()];
    await Promise.all(providers.map((p) => this.ask(p)));
  }

  private stale(state: ProviderState): boolean {
    if (state.asking) return false;
    if (state.askedAt === null) return true;
    return this.now() - state.askedAt > (state.ok ? FRESH_MS : RETRY_MS);
  }

  private ask(provider: string): Promise<void> {
    const state = this.state.get(provider);
    const listing = this.deps.listings[provider];
    if (!state || !listing) return Promise.resolve();
    state.asking ??= (async () => {
      state.askedAt = this.now();
      try {
        const samples = await listing();
        state.samples = samples;
        state.ok = true;
        await this.store(provider, samples);
      } catch (error) {
        // The samples known so far stay: a listing that failed once has not unpublished them.
        state.ok = false;
        this.deps.log.warn('voice samples not read from the provider', {
          provider,
          error: error instanceof Error ? error.message : String(error),
        });
      } finally {
        state.asking = null;
      }
    })();
    return state.asking;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private file(provider: string): string {
    return path.join(this.deps.dataDir, 'preset-previews', `${provider}-voice-samples.json`);
  }

  /** What an earlier run learnt: read once at start-up (a small file), nothing when absent or unreadable. */
  private stored(provider: string): ReadonlyMap<string, string> {
    try {
      const json = JSON.parse(readFileSync(this.file(provider), 'utf8')) as unknown;
      if (!json || typeof json !== 'object' || Array.isArray(json)) return new Map();
      return new Map(
        Object.entries(json).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch {
      return new Map();
    }
  }

  /** Best effort, as the other samples: without a writable DATA_DIR the URLs only live in memory. */
  private async store(provider: string, samples: ReadonlyMap<string, string>): Promise<void> {
    const file = this.file(provider);
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, JSON.stringify(Object.fromEntries(samples)));
      await rename(partial, file);
    } catch (error) {
      this.deps.log.warn('voice samples not cached on disk', {
        file,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
