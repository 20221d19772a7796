import { describe, expect, it } from 'vitest';
import { jobPrompt, outputFileName } from './output-name.ts';

const job = (input: Record<string, unknown>) => ({ id: 'job_4e7bfb021c0631ca', input });

describe('outputFileName', () => {
  it("takes the prompt's first words and the job's short id, keeping the engine's extension and number", () => {
    expect(outputFileName(job({ prompt: 'A red fox in snow' }), 'sketch.png')).toBe(
      'a-red-fox-in-snow-4e7bfb02.png',
    );
    expect(outputFileName(job({ prompt: 'A red fox' }), 'image-2.webp')).toBe('a-red-fox-4e7bfb02-2.webp');
    expect(outputFileName(job({ text: 'Hello there.' }), 'speech.wav')).toBe('hello-there-4e7bfb02.wav');
  });

  it('cuts a long prompt at a word, folds accents and keeps letters of any script', () => {
    const long = outputFileName(
      job({ prompt: 'a very long prompt about a lighthouse standing on a cliff at dusk' }),
      'x.png',
    );
    expect(long).toBe('a-very-long-prompt-about-a-lighthouse-standing-4e7bfb02.png');
    expect(outputFileName(job({ prompt: 'Crème brûlée, 東京の夜' }), 'x.png')).toBe(
      'creme-brulee-東京の夜-4e7bfb02.png',
    );
  });

  it("keeps the engine's name without a prompt, and never answers an empty name", () => {
    expect(outputFileName(job({}), 'upscaled-2x.mp4')).toBe('upscaled-2x-4e7bfb02.mp4');
    expect(outputFileName(job({ prompt: '!!!' }), '...')).toBe('output-4e7bfb02');
    expect(jobPrompt({ prompt: '   ' })).toBeNull();
    expect(jobPrompt({ prompt: 'x'.repeat(2000) })).toHaveLength(1000);
  });
});
