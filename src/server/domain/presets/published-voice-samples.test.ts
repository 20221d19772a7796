import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { PublishedVoiceSamples, type VoiceSampleListing } from './published-voice-samples.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'voice-samples-test-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const log = createLogger('silent');

/** A listing that answers what it is given, counting the times it was asked. */
function listing(answers: (() => Promise<ReadonlyMap<string, string>>)[]) {
  const asked = { count: 0 };
  const read: VoiceSampleListing = () => {
    const answer = answers[Math.min(asked.count, answers.length - 1)]!;
    asked.count++;
    return answer();
  };
  return { read, asked };
}

const ARIA = 'https://samples.example/aria.mp3';

describe('PublishedVoiceSamples', () => {
  it('reads the listing once for many lookups, then answers the URLs it lists', async () => {
    const dir = path.join(dataDir, 'once');
    const { read, asked } = listing([async () => new Map([['aria', ARIA]])]);
    const samples = new PublishedVoiceSamples({ listings: { elevenlabs: read }, dataDir: dir, log });
    // Nothing known before the listing answered: no made-up URL in the meantime.
    expect(samples.url('elevenlabs', 'aria')).toBeNull();
    expect(samples.url('elevenlabs', 'aria')).toBeNull();
    await samples.refresh();
    expect(asked.count).toBe(1);
    expect(samples.url('elevenlabs', 'aria')).toBe(ARIA);
    expect(samples.url('elevenlabs', 'someone-else')).toBeNull();
    expect(samples.url('openai', 'alloy')).toBeNull();
    expect(asked.count).toBe(1);
    const stored = JSON.parse(
      await readFile(path.join(dir, 'preset-previews', 'elevenlabs-voice-samples.json'), 'utf8'),
    );
    expect(stored).toEqual({ aria: ARIA });
  });

  it('answers what an earlier run stored while the provider cannot be reached, and keeps it after a failure', async () => {
    const dir = path.join(dataDir, 'restart');
    const first = new PublishedVoiceSamples({
      listings: { elevenlabs: async () => new Map([['aria', ARIA]]) },
      dataDir: dir,
      log,
    });
    await first.refresh();
    let now = 0;
    const { read, asked } = listing([() => Promise.reject(new Error('connect ECONNREFUSED'))]);
    const restarted = new PublishedVoiceSamples({
      listings: { elevenlabs: read },
      dataDir: dir,
      log,
      now: () => now,
    });
    // The lookup starts the listing (in the background); a refresh meanwhile waits for that one request.
    expect(restarted.url('elevenlabs', 'aria')).toBe(ARIA);
    await restarted.refresh();
    expect(asked.count).toBe(1);
    expect(restarted.url('elevenlabs', 'aria')).toBe(ARIA);
    // A failed listing is asked again, but not on every lookup.
    expect(asked.count).toBe(1);
    now += 10 * 60_000;
    restarted.url('elevenlabs', 'aria');
    expect(asked.count).toBe(2);
  });

  it('gives a provider that is not enabled no samples, whatever an earlier run stored', async () => {
    const dir = path.join(dataDir, 'disabled');
    const enabled = new PublishedVoiceSamples({
      listings: { elevenlabs: async () => new Map([['aria', ARIA]]) },
      dataDir: dir,
      log,
    });
    await enabled.refresh();
    const disabled = new PublishedVoiceSamples({ listings: {}, dataDir: dir, log });
    expect(disabled.url('elevenlabs', 'aria')).toBeNull();
  });

  it('works without a writable DATA_DIR', async () => {
    const samples = new PublishedVoiceSamples({
      listings: { elevenlabs: async () => new Map([['aria', ARIA]]) },
      dataDir: '/nonexistent-voice-samples-dir/x',
      log,
    });
    await samples.refresh();
    expect(samples.url('elevenlabs', 'aria')).toBe(ARIA);
  });
});
