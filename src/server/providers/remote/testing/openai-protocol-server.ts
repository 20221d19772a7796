import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FormValue, type RecordedRequest, record, sendJson } from './openai-run-context.ts';

/** Bytes the server answers: recognisable, not real media. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
export const MP4_BYTES = Buffer.from('....ftypisom-test-video');
export const speechBytes = (input: string) => Buffer.from(`MP3[${input.length}]`);

interface Video {
  id: string;
  model: string;
  seconds: string;
  size: string;
  polls: number;
  status: string;
}

/**
 * A local stand-in for OpenAI's REST API, answering as its reference shows: bearer auth (401 with
 * `{error: {message, type, code}}`), `/images/generations|edits`, `/audio/speech`,
 * `/audio/transcriptions`, and the Videos API with `queued → in_progress → completed` over polls.
 */
export interface OpenAIProtocolServer {
  /** The base URL, as OPENAI_BASE_URL (ends in `/v1`). */
  url: string;
  key: string;
  requests: RecordedRequest[];
  /** The next `count` requests answer 429 with these headers. */
  rateLimit(count: number, headers: Record<string, string>): void;
  /** How new videos end: completed after a few polls, failed, or running until cancelled. */
  videos: 'succeed' | 'fail' | 'hold';
  /** Synchronous endpoints never answer (until the client gives up). */
  hold: boolean;
  /** A video that already exists (for resumed jobs). */
  addVideo(id: string, status: string): void;
  close(): Promise<void>;
}

export async function startOpenAIServer(key = 'sk-test-key'): Promise<OpenAIProtocolServer> {
  const videos = new Map<string, Video>();
  let limited: { count: number; headers: Record<string, string> } = { count: 0, headers: {} };
  const api: OpenAIProtocolServer = {
    url: '',
    key,
    requests: [],
    rateLimit: (count, headers) => {
      limited = { count, headers };
    },
    videos: 'succeed',
    hold: false,
    addVideo: (id, status) => {
      videos.set(id, { id, model: 'sora-2', seconds: '8', size: '1280x720', polls: 99, status });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  const server = createServer(async (req, res) => {
    const request = await record(req, res, api.url);
    api.requests.push(request);
    const path = request.path.replace(/^\/v1/, '');
    if (path.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG_BYTES);
      return;
    }
    if (req.headers.authorization !== `Bearer ${key}`) {
      sendJson(res, 401, {
        error: {
          message:
            'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      return;
    }
    if (limited.count > 0) {
      limited.count--;
      sendJson(
        res,
        429,
        {
          error: {
            message: 'Rate limit reached for requests',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        limited.headers,
      );
      return;
    }
    const video = /^\/videos\/([^/]+)(\/content)?$/.exec(path);
    if (request.method === 'POST' && path === '/videos') return createVideo(request, res);
    if (video && request.method === 'GET' && !video[2]) return getVideo(video[1]!, res);
    if (video && request.method === 'GET' && video[2]) return videoContent(video[1]!, res);
    if (video && request.method === 'DELETE') {
      videos.delete(video[1]!);
      return sendJson(res, 200, { id: video[1], object: 'video.deleted', deleted: true });
    }
    if (api.hold) return; // never answers: the client aborts
    if (request.method === 'POST' && (path === '/images/generations' || path === '/images/edits')) {
      return images(request, res);
    }
    if (request.method === 'POST' && path === '/audio/speech') return speech(request, res);
    if (request.method === 'POST' && path === '/audio/transcriptions') return transcription(request, res);
    sendJson(res, 404, {
      error: { message: `Invalid URL (${request.method} ${request.path})`, type: 'invalid_request_error' },
    });
  });

  function field(request: RecordedRequest, name: string): unknown {
    if (request.json) return request.json[name];
    const value: FormValue | undefined = request.form?.[name]?.[0];
    return typeof value === 'string' ? value : undefined;
  }

  function images(request: RecordedRequest, res: ServerResponse) {
    const model = String(field(request, 'model'));
    const n = Number(field(request, 'n') ?? 1);
    const b64 = model.startsWith('gpt-image-') || field(request, 'response_format') === 'b64_json';
    const data = Array.from({ length: n }, (_, i) =>
      b64 ? { b64_json: PNG_BYTES.toString('base64') } : { url: `${api.url}/files/image-${i + 1}.png` },
    );
    sendJson(res, 200, {
      created: 1_700_000_000,
      data,
      ...(model.startsWith('gpt-image-') ? { output_format: 'png' } : {}),
    });
  }

  function speech(request: RecordedRequest, res: ServerResponse) {
    const input = String(request.json?.input ?? '');
    if (input.length > 4096) {
      return sendJson(res, 400, {
        error: {
          message: "'input' is too long: string too long",
          type: 'invalid_request_error',
          param: 'input',
        },
      });
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    res.end(speechBytes(input));
  }

  function transcription(request: RecordedRequest, res: ServerResponse) {
    if (field(request, 'response_format') === 'verbose_json') {
      return sendJson(res, 200, {
        task: 'transcribe',
        language: 'english',
        duration: 90,
        text: 'Hello there. General Kenobi.',
        segments: [
          { id: 0, seek: 0, start: 0, end: 1.5, text: ' Hello there.', tokens: [], temperature: 0 },
          { id: 1, seek: 0, start: 1.5, end: 3, text: ' General Kenobi.', tokens: [], temperature: 0 },
        ],
        usage: { type: 'duration', seconds: 90 },
      });
    }
    sendJson(res, 200, {
      text: 'Hello there.',
      usage: { type: 'tokens', input_tokens: 14, output_tokens: 4, total_tokens: 18 },
    });
  }

  function createVideo(request: RecordedRequest, res: ServerResponse) {
    const id = `video_${videos.size + 1}`;
    const created: Video = {
      id,
      model: String(field(request, 'model') ?? 'sora-2'),
      seconds: String(field(request, 'seconds') ?? '4'),
      size: String(field(request, 'size') ?? '720x1280'),
      polls: 0,
      status: 'queued',
    };
    videos.set(id, created);
    sendJson(res, 200, videoJson(created));
  }

  function getVideo(id: string, res: ServerResponse) {
    const video = videos.get(id);
    if (!video) return notFound(id, res);
    video.polls++;
    if (video.polls >= 2 && video.status === 'queued') video.status = 'in_progress';
    if (video.polls >= 3 && video.status === 'in_progress' && api.videos !== 'hold') {
      video.status = api.videos === 'fail' ? 'failed' : 'completed';
    }
    sendJson(res, 200, videoJson(video));
  }

  function videoContent(id: string, res: ServerResponse) {
    const video = videos.get(id);
    if (!video) return notFound(id, res);
    if (video.status !== 'completed') {
      return sendJson(res, 400, {
        error: { message: 'Video is not ready yet.', type: 'invalid_request_error' },
      });
    }
    res.writeHead(200, { 'content-type': 'video/mp4' });
    res.end(MP4_BYTES);
  }

  function notFound(id: string, res: ServerResponse) {
    sendJson(res, 404, {
      error: { message: `Video with id '${id}' not found.`, type: 'invalid_request_error' },
    });
  }

  function videoJson(video: Video) {
    const progress = { queued: 0, in_progress: 50, completed: 100, failed: 50 }[video.status] ?? 0;
    return {
      id: video.id,
      object: 'video',
      model: video.model,
      status: video.status,
      progress,
      created_at: 1_700_000_000,
      completed_at: video.status === 'completed' ? 1_700_000_100 : null,
      expires_at: null,
      prompt: 'test',
      remixed_from_video_id: null,
      seconds: video.seconds,
      size: video.size,
      error:
        video.status === 'failed'
          ? { code: 'moderation_blocked', message: 'Your request was blocked by our moderation system.' }
          : null,
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return api;
}
