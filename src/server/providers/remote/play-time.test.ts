import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../../domain/jobs/provider.ts';
import { playTimeOf } from './native-input.ts';
import { mp4Of, wavOf } from './testing/fal-replicate-test-media.ts';

/** A caller's file as the runner describes it: by URL, its length from the answer, no play time yet. */
function callersFile(bytes: Buffer, size: number | null = bytes.length): InputFile & { opened: number } {
  const file = {
    url: 'https://example.com/clip',
    publicUrl: 'https://example.com/clip',
    contentType: 'video/mp4',
    kind: 'video' as const,
    size,
    fileName: 'clip',
    opened: 0,
    open: async () => {
      file.opened++;
      return Readable.from([bytes]);
    },
    durationSeconds: async () => null,
  };
  return file;
}

describe("an input's play time, for billing by its length", () => {
  it("reads a caller's file to learn it when nothing measured it", async () => {
    const signal = new AbortController().signal;
    expect(await playTimeOf(callersFile(mp4Of(4.25)), signal)).toBe(4.25);
    expect(await playTimeOf(callersFile(wavOf(2.5)), signal)).toBe(2.5);
  });

  it('takes a measured play time as it is, and does not read a file too large to hold or of unknown size', async () => {
    const signal = new AbortController().signal;
    const measured = { ...callersFile(mp4Of(1)), durationSeconds: async () => 7 };
    expect(await playTimeOf(measured, signal)).toBe(7);
    const huge = callersFile(mp4Of(1), 500 * 1024 * 1024);
    expect(await playTimeOf(huge, signal)).toBeNull();
    const unknown = callersFile(mp4Of(1), null);
    expect(await playTimeOf(unknown, signal)).toBeNull();
    expect(huge.opened + unknown.opened).toBe(0);
  });
});
