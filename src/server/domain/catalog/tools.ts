import type { ToolDefinition } from './types.ts';

/** The eight tools of the spec, with what each does and a request that works on this server. */
export const TOOLS: readonly ToolDefinition[] = [
  {
    key: 'image',
    description: 'Generate images from a prompt, edit source images, or upscale them.',
    example: { model: 'local-sketch', prompt: 'a lighthouse at dusk, ink sketch', aspect_ratio: '16:9' },
  },
  {
    key: 'video',
    description:
      'Text-to-video, image-to-video, lipsync, editing, avatars and upscaling. Video analysis is POST /v2/video/analyze.',
    example: {
      model: 'local-motion',
      prompt: 'slow pan across a harbour',
      duration: 5,
      aspect_ratio: '16:9',
    },
  },
  {
    key: 'speech',
    description: 'Text to speech in a choice of voices.',
    example: { model: 'local-flite', text: 'Hello from Media Console.', voice: 'slt' },
  },
  {
    key: 'music',
    description: 'Music from a text prompt, for an exact duration.',
    example: { model: 'local-procedural-music', prompt: 'calm piano, slow tempo', duration: 30 },
  },
  {
    key: 'transcription',
    description: 'Transcribe speech in an audio file to text with timed segments.',
    example: { model: 'local-pocketsphinx', audio_url: 'https://example.com/talk.wav', language: 'en' },
  },
  {
    key: 'ffmpeg',
    description:
      'Media processing as declared operations (transcode, resize, trim, concat, extract audio, thumbnail, GIF).',
    example: {
      model: 'ffmpeg',
      files: [{ url: 'https://example.com/clip.mp4' }],
      operations: [{ op: 'resize', width: 640, fit: 'contain' }],
    },
  },
  {
    key: 'render',
    description: 'Compose images, videos, audio and text on a timeline into one video or image.',
    example: {
      model: 'local-render',
      duration: 5,
      format: 'mp4',
      layers: [
        { type: 'image', url: 'https://example.com/background.png' },
        { type: 'text', text: 'Hello', font_size: 72, y: 300 },
      ],
    },
  },
  {
    key: 'pipeline',
    description:
      'Run a small graph of tool steps: a step waits for the steps whose output it uses (and those it `needs`); independent steps run side by side.',
    example: {
      model: 'pipeline',
      steps: [
        { id: 'sketch', tool: 'image', input: { model: 'local-sketch', prompt: 'a red kite over the sea' } },
        {
          id: 'bigger',
          tool: 'image',
          input: { model: 'local-upscale', files: [{ url: '{{steps.sketch.output.url}}' }] },
        },
      ],
    },
  },
];
