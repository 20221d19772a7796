import { describe, expect, it } from 'vitest';
import {
  curlSnippet,
  javascriptSnippet,
  mediaSnippet,
  pythonSnippet,
  routeOf,
  SNIPPET_LANGUAGES,
  type SnippetInput,
} from './request-snippets.ts';

const INPUT: SnippetInput = {
  baseUrl: 'http://localhost:8787/v2',
  tool: 'speech',
  analysis: false,
  body: { model: 'local-flite', text: "It's here", options: { loop: true, seed: null, tags: ['a'] } },
  idempotencyKey: '0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f',
};

describe('copying the form as a request', () => {
  it('uses each tool’s sugar route; analysis has its own', () => {
    expect(routeOf('image', false)).toBe('/image');
    expect(routeOf('video', true)).toBe('/video/analyze');
    expect(routeOf('ffmpeg', false)).toBe('/ffmpeg');
  });

  it('offers cURL, JavaScript, Python and the media command, in that order', () => {
    expect(SNIPPET_LANGUAGES.map((language) => language.label)).toEqual([
      'cURL',
      'JavaScript',
      'Python',
      'media command',
    ]);
  });

  it('writes a media command: the tool’s command, the server without /v2, the whole body, its own key, waiting', () => {
    const media = mediaSnippet(INPUT);
    expect(media.split(' \\\n')).toEqual([
      `media speech --base-url 'http://localhost:8787'`,
      `  --model 'local-flite'`,
      `  --input '${JSON.stringify(INPUT.body, null, 2).replaceAll("'", `'\\''`)}'`,
      `  --idempotency-key '0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f'`,
      '  --wait',
    ]);
    expect(mediaSnippet({ ...INPUT, tool: 'transcription' })).toMatch(/^media transcribe /);
    expect(mediaSnippet({ ...INPUT, tool: 'video', analysis: true })).toMatch(/^media analyze /);
  });

  it('writes a cURL command with the key from the environment, the snippet’s own Idempotency-Key and the body quoted', () => {
    const curl = curlSnippet(INPUT);
    expect(curl).toContain(`curl -X POST 'http://localhost:8787/v2/speech'`);
    expect(curl).toContain('-H "Authorization: Bearer $MEDIA_API_KEY"');
    // Literal, so running the snippet twice replays one job; no command substitution that may be empty.
    expect(curl).toContain(`-H 'Idempotency-Key: 0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f'`);
    expect(curl).not.toContain('$(');
    // The apostrophe closes the quote, is escaped, and the quote reopens.
    expect(curl).toContain(`"text": "It'\\''s here"`);
    expect(curl).not.toMatch(/mcsk_|eyJ/);
  });

  it('writes JavaScript with the platform’s fetch, nothing of this repository to install, waiting for the job', () => {
    const js = javascriptSnippet({ ...INPUT, tool: 'video', analysis: true });
    expect(js).not.toMatch(/\bimport\b|require\(|media-console|src\/client/);
    expect(js).toContain('const baseUrl = "http://localhost:8787/v2";');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal, as text.
    expect(js).toContain('await fetch(`${baseUrl}/video/analyze`');
    expect(js).toContain('process.env.MEDIA_API_KEY');
    expect(js).toContain(`'Idempotency-Key': "0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f"`);
    expect(js).toContain('"text": "It\'s here"');
    expect(js).toContain("['completed', 'failed', 'cancelled'].includes(job.status)");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal, as text.
    expect(js).toContain('fetch(`${baseUrl}/jobs/${job.id}`, { headers })');
  });

  it('writes Python with requests, the body as a Python literal (True, None), waiting for the job', () => {
    const python = pythonSnippet(INPUT);
    expect(python).toContain('import requests');
    expect(python).toContain(`BASE_URL = "http://localhost:8787/v2"`);
    expect(python).toContain(`f"{BASE_URL}/speech"`);
    expect(python).toContain(`os.environ['MEDIA_API_KEY']`);
    expect(python).toContain(`"Idempotency-Key": "0b5e4d1c-2f6a-4c3b-9d8e-7a6b5c4d3e2f"`);
    expect(python).toContain(`"text": "It's here",`);
    expect(python).toContain(`"loop": True,`);
    expect(python).toContain(`"seed": None,`);
    expect(python).not.toMatch(/\b(true|false|null)\b/);
    expect(python).toContain(`while job["status"] not in ("completed", "failed", "cancelled"):`);
  });
});
