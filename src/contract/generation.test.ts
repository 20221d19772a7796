import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_KEYS } from './common.ts';
import {
  callTool,
  createImage,
  FfmpegRequest,
  FfmpegResizeV1Job,
  FfmpegResizeV1Request,
  ffmpegResizeV1,
  GenerationHeaders,
  ImageRequest,
  MusicRequest,
  PipelineRequest,
  RenderRequest,
  SpeechRequest,
  TOOL_REQUEST_BODIES,
  ToolCallRequest,
  TranscriptionRequest,
  VideoAnalyzeRequest,
  VideoRequest,
} from './generation.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const file = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}.png` }));

describe('POST /image', () => {
  it('takes a prompt of up to 2000 characters', () => {
    expect(issuesOf(ImageRequest, { prompt: 'a'.repeat(2000) })).toEqual([]);
    expect(issuesOf(ImageRequest, { prompt: 'a'.repeat(2001) })).toEqual(['prompt: too_big']);
  });

  it('takes up to 10 files', () => {
    expect(issuesOf(ImageRequest, { prompt: 'x', files: file(10) })).toEqual([]);
    expect(issuesOf(ImageRequest, { prompt: 'x', files: file(11) })).toEqual(['files: too_big']);
  });

  it('needs a prompt or a source file (editing and upscaling have only files)', () => {
    expect(issuesOf(ImageRequest, {})).toEqual(['prompt: custom']);
    expect(issuesOf(ImageRequest, { prompt: '   ' })).toEqual(['prompt: custom']);
    expect(issuesOf(ImageRequest, { files: file(1) })).toEqual([]);
  });

  it('takes aspect_ratio of the form <w>:<h>', () => {
    expect(issuesOf(ImageRequest, { prompt: 'x', aspect_ratio: '16:9' })).toEqual([]);
    expect(issuesOf(ImageRequest, { prompt: 'x', aspect_ratio: '1:1' })).toEqual([]);
    for (const bad of ['16x9', '16:', ':9', '0:1', '16:9:1', 'wide']) {
      expect(issuesOf(ImageRequest, { prompt: 'x', aspect_ratio: bad })).toEqual([
        'aspect_ratio: invalid_format',
      ]);
    }
  });

  it('takes files as { url } with an http(s) URL', () => {
    expect(issuesOf(ImageRequest, { files: [{ url: 'ftp://example.com/a.png' }] })).toEqual([
      'files.0.url: invalid_format',
    ]);
    expect(issuesOf(ImageRequest, { files: [{ href: 'https://example.com/a.png' }] })).toEqual([
      'files.0.url: invalid_type',
    ]);
  });

  it('takes model, provider_options keyed by provider and options with webhook_url and cache', () => {
    const body = {
      model: 'fal:flux-dev',
      prompt: 'x',
      provider_options: { fal: { guidance_scale: 3 } },
      options: { webhook_url: 'https://example.com/hook', cache: false },
    };
    expect(parseOk(ImageRequest, body)).toMatchObject(body);
    expect(issuesOf(ImageRequest, { ...body, provider_options: { fal: 3 } })).toEqual([
      'provider_options.fal: invalid_type',
    ]);
    expect(issuesOf(ImageRequest, { ...body, options: { webhook_url: 'not a url' } })).toEqual([
      'options.webhook_url: invalid_format',
    ]);
    expect(issuesOf(ImageRequest, { ...body, options: { cache: 'no' } })).toEqual([
      'options.cache: invalid_type',
    ]);
    expect(issuesOf(ImageRequest, { ...body, model: '' })).toEqual(['model: too_small']);
  });
});

describe('POST /video', () => {
  it('takes a duration greater than 0', () => {
    expect(issuesOf(VideoRequest, { prompt: 'x', duration: 0 })).toEqual(['duration: too_small']);
    expect(issuesOf(VideoRequest, { prompt: 'x', duration: -1 })).toEqual(['duration: too_small']);
    expect(issuesOf(VideoRequest, { prompt: 'x', duration: 0.5 })).toEqual([]);
    expect(issuesOf(VideoRequest, { prompt: 'x', duration: '5' })).toEqual(['duration: invalid_type']);
  });

  it('needs a prompt or files (image-to-video has the start frame in files)', () => {
    expect(issuesOf(VideoRequest, {})).toEqual(['prompt: custom']);
    expect(issuesOf(VideoRequest, { files: file(2) })).toEqual([]);
  });
});

describe('POST /video/analyze', () => {
  it('requires video_url and defaults the model to video-analyze', () => {
    expect(issuesOf(VideoAnalyzeRequest, {})).toEqual(['video_url: invalid_type']);
    expect(parseOk(VideoAnalyzeRequest, { video_url: 'https://example.com/v.mp4' }).model).toBe(
      'video-analyze',
    );
    expect(
      parseOk(VideoAnalyzeRequest, { video_url: 'https://example.com/v.mp4', prompt: 'count cats' }).prompt,
    ).toBe('count cats');
    expect(issuesOf(VideoAnalyzeRequest, { video_url: 'v.mp4' })).toEqual(['video_url: invalid_format']);
  });
});

describe('POST /speech', () => {
  it('requires text of 1 to 10000 characters', () => {
    expect(issuesOf(SpeechRequest, {})).toEqual(['text: invalid_type']);
    expect(issuesOf(SpeechRequest, { text: '' })).toEqual(['text: too_small']);
    expect(issuesOf(SpeechRequest, { text: 'a' })).toEqual([]);
    expect(issuesOf(SpeechRequest, { text: 'a'.repeat(10_000) })).toEqual([]);
    expect(issuesOf(SpeechRequest, { text: 'a'.repeat(10_001) })).toEqual(['text: too_big']);
  });

  it('takes a voice name or preset id', () => {
    expect(issuesOf(SpeechRequest, { text: 'hi', voice: 'preset_0123456789ab' })).toEqual([]);
  });
});

describe('POST /music', () => {
  it('requires a prompt of 1 to 1000 characters', () => {
    expect(issuesOf(MusicRequest, { prompt: '' })).toEqual(['prompt: too_small']);
    expect(issuesOf(MusicRequest, { prompt: 'a' })).toEqual([]);
    expect(issuesOf(MusicRequest, { prompt: 'a'.repeat(1000) })).toEqual([]);
    expect(issuesOf(MusicRequest, { prompt: 'a'.repeat(1001) })).toEqual(['prompt: too_big']);
  });

  it('takes a whole duration of 1 to 600 seconds', () => {
    expect(issuesOf(MusicRequest, { prompt: 'x', duration: 0 })).toEqual(['duration: too_small']);
    expect(issuesOf(MusicRequest, { prompt: 'x', duration: 1 })).toEqual([]);
    expect(issuesOf(MusicRequest, { prompt: 'x', duration: 600 })).toEqual([]);
    expect(issuesOf(MusicRequest, { prompt: 'x', duration: 601 })).toEqual(['duration: too_big']);
    expect(issuesOf(MusicRequest, { prompt: 'x', duration: 1.5 })).toEqual(['duration: invalid_type']);
  });
});

describe('POST /transcription', () => {
  it('requires audio_url and takes a language code', () => {
    expect(issuesOf(TranscriptionRequest, {})).toEqual(['audio_url: invalid_type']);
    expect(
      issuesOf(TranscriptionRequest, { audio_url: 'https://example.com/a.mp3', language: 'en' }),
    ).toEqual([]);
    expect(
      issuesOf(TranscriptionRequest, { audio_url: 'https://example.com/a.mp3', language: 'pt-BR' }),
    ).toEqual([]);
    expect(
      issuesOf(TranscriptionRequest, { audio_url: 'https://example.com/a.mp3', language: 'english!' }),
    ).toEqual(['language: invalid_format']);
  });
});

describe('POST /ffmpeg (declarative)', () => {
  const one = { files: file(1) };
  const ops = (n: number) => Array.from({ length: n }, () => ({ op: 'thumbnail', at: 1 }));

  it('takes 1 to 20 operations', () => {
    expect(issuesOf(FfmpegRequest, { ...one, operations: ops(0) })).toEqual(['operations: too_small']);
    expect(issuesOf(FfmpegRequest, { ...one, operations: ops(1) })).toEqual([]);
    expect(issuesOf(FfmpegRequest, { ...one, operations: ops(20) })).toEqual([]);
    expect(issuesOf(FfmpegRequest, { ...one, operations: ops(21) })).toEqual(['operations: too_big']);
  });

  it('knows only its operations, never a command line', () => {
    expect(issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'raw', args: '-i x' }] })).toEqual([
      'operations.0.op: invalid_union',
    ]);
    expect(issuesOf(FfmpegRequest, { ...one, command: 'ffmpeg -i a b', operations: ops(1) })).toEqual([]);
    expect(
      parseOk(FfmpegRequest, { ...one, command: 'ffmpeg -i a b', operations: ops(1) }),
    ).not.toHaveProperty('command');
  });

  it('parses each operation with its defaults', () => {
    const body = parseOk(FfmpegRequest, {
      ...one,
      operations: [
        { op: 'trim', end: 5 },
        { op: 'resize', width: 640 },
        { op: 'transcode', format: 'webm', video_codec: 'vp9' },
        { op: 'extract_audio' },
        { op: 'gif' },
      ],
    });
    expect(body.operations).toEqual([
      { op: 'trim', start: 0, end: 5 },
      { op: 'resize', width: 640, fit: 'cover' },
      { op: 'transcode', format: 'webm', video_codec: 'vp9' },
      { op: 'extract_audio', format: 'mp3' },
      { op: 'gif', fps: 10, width: 480 },
    ]);
  });

  it('checks resize and trim', () => {
    expect(issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'resize' }] })).toEqual([
      'operations.0.width: custom',
    ]);
    expect(issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'resize', width: 0 }] })).toEqual([
      'operations.0.width: too_small',
    ]);
    expect(
      issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'resize', width: 10, fit: 'fill' }] }),
    ).toEqual(['operations.0.fit: invalid_value']);
    expect(
      issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'trim', start: 1, end: 2, duration: 1 }] }),
    ).toEqual(['operations.0.end: custom']);
    expect(issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'trim', start: 3, end: 2 }] })).toEqual([
      'operations.0.end: custom',
    ]);
    expect(issuesOf(FfmpegRequest, { ...one, operations: [{ op: 'trim', start: 1, duration: 2 }] })).toEqual(
      [],
    );
  });

  it('joins several files only with a leading concat', () => {
    expect(issuesOf(FfmpegRequest, { files: file(2), operations: [{ op: 'concat' }] })).toEqual([]);
    expect(issuesOf(FfmpegRequest, { files: file(2), operations: ops(1) })).toEqual(['operations: custom']);
    expect(issuesOf(FfmpegRequest, { files: file(1), operations: [{ op: 'concat' }] })).toEqual([
      'files: custom',
    ]);
    expect(
      issuesOf(FfmpegRequest, { files: file(2), operations: [{ op: 'concat' }, { op: 'concat' }] }),
    ).toEqual(['operations.1: custom']);
  });

  it('takes 1 to 10 files', () => {
    expect(issuesOf(FfmpegRequest, { files: [], operations: ops(1) })).toEqual(['files: too_small']);
    expect(issuesOf(FfmpegRequest, { files: file(10), operations: [{ op: 'concat' }] })).toEqual([]);
    expect(issuesOf(FfmpegRequest, { files: file(11), operations: [{ op: 'concat' }] })).toEqual([
      'files: too_big',
    ]);
  });
});

describe('render (ours)', () => {
  const layer = { type: 'text', text: 'Hello' };
  it('takes 1 to 50 layers and a duration up to 600 seconds', () => {
    const body = parseOk(RenderRequest, { duration: 5, layers: [layer] });
    expect(body).toMatchObject({ width: 1280, height: 720, fps: 30, format: 'mp4', background: '#000000' });
    expect(issuesOf(RenderRequest, { duration: 5, layers: [] })).toEqual(['layers: too_small']);
    expect(issuesOf(RenderRequest, { duration: 5, layers: Array(50).fill(layer) })).toEqual([]);
    expect(issuesOf(RenderRequest, { duration: 5, layers: Array(51).fill(layer) })).toEqual([
      'layers: too_big',
    ]);
    expect(issuesOf(RenderRequest, { duration: 600, layers: [layer] })).toEqual([]);
    expect(issuesOf(RenderRequest, { duration: 601, layers: [layer] })).toEqual(['duration: too_big']);
    expect(issuesOf(RenderRequest, { duration: 0, layers: [layer] })).toEqual(['duration: too_small']);
  });

  it('checks layers by type', () => {
    expect(issuesOf(RenderRequest, { duration: 5, layers: [{ type: 'image' }] })).toEqual([
      'layers.0.url: invalid_type',
    ]);
    expect(issuesOf(RenderRequest, { duration: 5, layers: [{ ...layer, color: 'red' }] })).toEqual([
      'layers.0.color: invalid_format',
    ]);
  });
});

describe('pipeline (ours)', () => {
  const image = { id: 'pic', tool: 'image', input: { prompt: 'a fox' } };
  const video = {
    id: 'clip',
    tool: 'video',
    input: { files: [{ url: '{{steps.pic.output.url}}' }], duration: 4 },
  };

  it('lets a step use the output of an earlier one', () => {
    expect(issuesOf(PipelineRequest, { steps: [image, video] })).toEqual([]);
  });

  it('takes steps in any order (a step waits for what it uses), and refuses unknown steps and duplicate ids', () => {
    expect(issuesOf(PipelineRequest, { steps: [video, image] })).toEqual([]);
    expect(issuesOf(PipelineRequest, { steps: [video] })).toEqual(['steps.0.input: custom']);
    expect(issuesOf(PipelineRequest, { steps: [image, { ...image }] })).toEqual(['steps.1.id: custom']);
  });

  it('validates each step input with its tool body', () => {
    expect(
      issuesOf(PipelineRequest, { steps: [{ id: 'say', tool: 'speech', input: { text: '' } }] }),
    ).toEqual(['steps.0.input.text: custom']);
  });

  it('does not nest pipelines and takes 1 to 10 steps', () => {
    expect(issuesOf(PipelineRequest, { steps: [{ id: 'p', tool: 'pipeline', input: {} }] })).toEqual([
      'steps.0.tool: invalid_value',
    ]);
    const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ ...image, id: `s${i}` }));
    expect(issuesOf(PipelineRequest, { steps: steps(0) })).toEqual(['steps: too_small']);
    expect(issuesOf(PipelineRequest, { steps: steps(10) })).toEqual([]);
    expect(issuesOf(PipelineRequest, { steps: steps(11) })).toEqual(['steps: too_big']);
  });
});

describe('common request parts', () => {
  it('takes an Idempotency-Key of 1 to 255 characters', () => {
    expect(issuesOf(GenerationHeaders, { 'idempotency-key': 'k'.repeat(255) })).toEqual([]);
    expect(issuesOf(GenerationHeaders, { 'idempotency-key': 'k'.repeat(256) })).toEqual([
      'idempotency-key: too_big',
    ]);
    expect(issuesOf(GenerationHeaders, { 'idempotency-key': '' })).toEqual(['idempotency-key: too_small']);
    expect(issuesOf(GenerationHeaders, { 'x-workspace-id': 'my-folder' })).toEqual([]);
  });

  it('answers 202 with the job, 200 on an idempotent replay, with the spec errors', () => {
    expect(Object.keys(createImage.responses).sort()).toEqual(['200', '202']);
    for (const code of [
      'invalid_request',
      'insufficient_balance',
      'spend_limit_exceeded',
      'forbidden',
      'model_not_found',
      'rate_limited',
    ]) {
      expect(createImage.errors).toContain(code);
    }
    expect(createImage.errors).toContain('pricing_unavailable');
  });
});

describe('POST /tools/{tool_key}/call', () => {
  it('has a body schema for every tool key, usable as input_schema', () => {
    expect(Object.keys(TOOL_REQUEST_BODIES)).toEqual([...TOOL_KEYS]);
    for (const schema of Object.values(TOOL_REQUEST_BODIES)) {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
      expect(JSON.stringify(json)).toContain('"type":"object"');
    }
  });

  it('takes exactly the tool keys in the path', () => {
    expect(issuesOf(callTool.params, { tool_key: 'image' })).toEqual([]);
    expect(issuesOf(callTool.params, { tool_key: 'upscale' })).toEqual(['tool_key: invalid_value']);
  });

  it('documents the alternatives: one body per tool', () => {
    const refs = (z.globalRegistry.get(ToolCallRequest)?.anyOf ?? []) as Array<{ $ref: string }>;
    expect(refs.map((r) => r.$ref)).toEqual([
      '#/components/schemas/ImageRequest',
      '#/components/schemas/VideoRequest',
      '#/components/schemas/SpeechRequest',
      '#/components/schemas/MusicRequest',
      '#/components/schemas/TranscriptionRequest',
      '#/components/schemas/FfmpegRequest',
      '#/components/schemas/RenderRequest',
      '#/components/schemas/PipelineRequest',
    ]);
  });
});

describe('POST /v1/ffmpeg/resize (spec 9)', () => {
  it('requires url, takes width and height of at least 1, fit defaulting to cover', () => {
    expect(issuesOf(FfmpegResizeV1Request, { width: 10 })).toEqual(['url: invalid_type']);
    expect(parseOk(FfmpegResizeV1Request, { url: 'https://example.com/v.mp4', width: 1 }).fit).toBe('cover');
    expect(issuesOf(FfmpegResizeV1Request, { url: 'https://example.com/v.mp4', width: 0 })).toEqual([
      'width: too_small',
    ]);
    expect(
      issuesOf(FfmpegResizeV1Request, { url: 'https://example.com/v.mp4', height: 1, fit: 'contain' }),
    ).toEqual([]);
    expect(
      issuesOf(FfmpegResizeV1Request, { url: 'https://example.com/v.mp4', height: 1, fit: 'fill' }),
    ).toEqual(['fit: invalid_value']);
  });

  it('answers the v1 job shape', () => {
    const created = {
      job_id: 'job_1',
      status: 'queued',
      model: 'local:ffmpeg-resize',
      created_at: '2025-01-01T00:00:00Z',
      cache: { hit: false, key: 'abc' },
    };
    expect(issuesOf(FfmpegResizeV1Job, created)).toEqual([]);
    expect(issuesOf(FfmpegResizeV1Job, { ...created, status: 'processing' })).toEqual([]);
    expect(issuesOf(FfmpegResizeV1Job, { ...created, status: 'running' })).toEqual(['status: invalid_value']);
    expect(issuesOf(FfmpegResizeV1Job, { ...created, cache: { hit: true } })).toEqual([
      'cache.key: invalid_type',
    ]);
    const done = {
      ...created,
      status: 'completed',
      completed_at: '2025-01-01T00:00:03Z',
      output: { url: 'https://x/y.mp4', media_type: 'video/mp4' },
    };
    expect(issuesOf(FfmpegResizeV1Job, done)).toEqual([]);
    expect(ffmpegResizeV1.path).toBe('/v1/ffmpeg/resize');
  });
});
