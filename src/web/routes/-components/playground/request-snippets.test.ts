import { describe, expect, it } from 'vitest';
import { curlSnippet, routeOf, typescriptSnippet } from './request-snippets.ts';

describe('copying the form as a request', () => {
  it('uses each tool’s sugar route and client function; analysis has its own', () => {
    expect(routeOf('image', false)).toEqual({ path: '/image', operation: 'createImage' });
    expect(routeOf('video', true)).toEqual({ path: '/video/analyze', operation: 'analyzeVideo' });
    expect(routeOf('ffmpeg', false).operation).toBe('runFfmpeg');
  });

  it('writes a cURL command with the key from the environment, the snippet’s own Idempotency-Key and the body quoted', () => {
    const curl = curlSnippet({
      baseUrl: 'http://localhost:8787/v2',
      tool: 'speech',
      analysis: false,
      body: { model: 'local-flite', text: "It's here" },
      idempotencyKey: '0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f',
    });
    expect(curl).toContain(`curl -X POST 'http://localhost:8787/v2/speech'`);
    expect(curl).toContain('-H "Authorization: Bearer $MEDIA_API_KEY"');
    // Literal, so running the snippet twice replays one job; no command substitution that may be empty.
    expect(curl).toContain(`-H 'Idempotency-Key: 0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f'`);
    expect(curl).not.toContain('$(');
    // The apostrophe closes the quote, is escaped, and the quote reopens.
    expect(curl).toContain(`"text": "It'\\''s here"`);
    expect(curl).not.toMatch(/mcsk_|eyJ/);
  });

  it('writes TypeScript with this project’s client, the same body and the snippet’s own key', () => {
    const ts = typescriptSnippet({
      baseUrl: 'http://localhost:8787/v2',
      tool: 'video',
      analysis: true,
      body: { model: 'video-analyze', video_url: 'https://e.com/a.mp4' },
      idempotencyKey: '0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f',
    });
    expect(ts).toContain("import { createClient } from 'media-console/src/client/create-client.ts';");
    expect(ts).toContain('await client.analyzeVideo({');
    expect(ts).toContain('"video_url": "https://e.com/a.mp4"');
    expect(ts).toContain(`headers: { 'idempotency-key': "0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f" }`);
  });
});
