import type { ModelDefinition } from '../types.ts';
import { durationRange, needsFiles } from './define.ts';
import {
  AudioReplaceOptions,
  EditOptions,
  EspeakOptions,
  MotionOptions,
  MusicOptions,
  NoOptions,
  SketchOptions,
  SpeechOptions,
  UpscaleOptions,
  VideoConcatOptions,
  VideoTrimOptions,
  VideoUpscaleOptions,
} from './local-options.ts';
import { offer, optionsSchema } from './offer.ts';

/*
 * The offline engines of the `local` provider. Names say what each engine really does: none of them
 * pretends to be a neural model. Prices are credits (cents) per unit.
 */
export const LOCAL_MODELS: readonly ModelDefinition[] = [
  {
    id: 'local-sketch',
    tool: 'image',
    displayName: 'Local procedural sketch',
    description:
      'A scene composed from the prompt (subjects, counts, colours, setting, time of day, weather) with packaged emoji artwork; the seed varies the arrangement. Offline; not a neural model.',
    offers: [offer('local', 'sketch', 'image', 1, 1, optionsSchema(SketchOptions))],
    deterministic: true,
    estimatedDurationMs: 1_000,
  },
  {
    id: 'local-edit',
    tool: 'image',
    displayName: 'Local image edit',
    description:
      'Real edits of a source image with sharp: resize, crop, rotate, format and colour operations.',
    offers: [offer('local', 'edit', 'image', 1, 1, optionsSchema(EditOptions))],
    fields: { files: needsFiles(1, 1) },
    deterministic: true,
    estimatedDurationMs: 1_000,
  },
  {
    id: 'local-upscale',
    tool: 'image',
    displayName: 'Local upscale (2x/4x)',
    description: 'Lanczos upscaling of a source image with sharp; no detail is invented.',
    offers: [offer('local', 'upscale', 'image', 2, 1, optionsSchema(UpscaleOptions))],
    fields: { files: needsFiles(1, 1) },
    ignores: ['prompt', 'aspect_ratio'],
    deterministic: true,
    estimatedDurationMs: 1_500,
  },
  {
    id: 'local-motion',
    tool: 'video',
    displayName: 'Local motion (text-to-video sketch)',
    description:
      'The prompt composed as a scene that moves: the camera zooms or pans, subjects travel, rain or snow falls, the light changes. Encoded to H.264 with ffmpeg, offline.',
    offers: [offer('local', 'motion', 'second', 1, 5, optionsSchema(MotionOptions))],
    imageToVideoVariant: 'local-motion-i2v',
    fields: { duration: durationRange(1, 60) },
    deterministic: true,
    estimatedDurationMs: 6_000,
  },
  {
    id: 'local-motion-i2v',
    tool: 'video',
    displayName: 'Local motion (image-to-video)',
    description:
      'A camera move over the start frame in `files`, chosen from the prompt ("zoom in", "pan left"), with its rain or snow falling; ffmpeg, offline.',
    offers: [offer('local', 'motion-i2v', 'second', 1, 5, optionsSchema(MotionOptions))],
    fields: { duration: durationRange(1, 60), files: needsFiles(1, 1) },
    deterministic: true,
    estimatedDurationMs: 6_000,
  },
  {
    id: 'local-video-upscale',
    tool: 'video',
    displayName: 'Local video upscale (2x/4x)',
    description: 'Lanczos upscaling of the video in `files` with ffmpeg; no detail is invented.',
    offers: [offer('local', 'video-upscale', 'second', 1, 5, optionsSchema(VideoUpscaleOptions))],
    fields: { files: needsFiles(1, 1) },
    deterministic: true,
    estimatedDurationMs: 8_000,
  },
  {
    id: 'local-video-trim',
    tool: 'video',
    displayName: 'Local video trim',
    description: 'Cuts the video in `files` to a start and end time with ffmpeg.',
    offers: [offer('local', 'video-trim', 'second', 0.2, 5, optionsSchema(VideoTrimOptions))],
    fields: { files: needsFiles(1, 1) },
    deterministic: true,
    estimatedDurationMs: 3_000,
  },
  {
    id: 'local-video-concat',
    tool: 'video',
    displayName: 'Local video concat',
    description:
      'Joins the videos in `files`, in order, into one (scaled to the first one’s size) with ffmpeg.',
    offers: [offer('local', 'video-concat', 'second', 0.2, 10, optionsSchema(VideoConcatOptions))],
    fields: { files: needsFiles(2, 10) },
    deterministic: true,
    estimatedDurationMs: 5_000,
  },
  {
    id: 'local-audio-replace',
    tool: 'video',
    displayName: 'Local audio replacement',
    description:
      'Replaces the soundtrack of a video (files[0]) with an audio file (files[1]) with ffmpeg. It does not move lips.',
    offers: [offer('local', 'audio-replace', 'second', 0.2, 10, optionsSchema(AudioReplaceOptions))],
    fields: { files: needsFiles(2, 2) },
    deterministic: true,
    estimatedDurationMs: 3_000,
  },
  {
    id: 'video-analyze',
    tool: 'video',
    displayName: 'Video analysis',
    description:
      'Facts (ffprobe), scene cuts, keyframes, on-screen text (OCR), transcript and suspicious instructions from a video. Used by POST /v2/video/analyze.',
    offers: [offer('local', 'video-analyze', 'job', 5, 1, optionsSchema(NoOptions))],
    deterministic: true,
    estimatedDurationMs: 10_000,
  },
  {
    id: 'local-flite',
    tool: 'speech',
    displayName: 'Flite (local speech)',
    description: 'Text to speech with CMU Flite compiled to WebAssembly, English voices, offline.',
    offers: [offer('local', 'flite', 'thousand_characters', 2, 0.2, optionsSchema(SpeechOptions))],
    deterministic: true,
    estimatedDurationMs: 1_500,
  },
  {
    id: 'local-espeak',
    tool: 'speech',
    displayName: 'eSpeak NG (local speech)',
    description: 'Text to speech with eSpeak NG compiled to WebAssembly, many languages, offline.',
    offers: [offer('local', 'espeak-ng', 'thousand_characters', 2, 0.2, optionsSchema(EspeakOptions))],
    deterministic: true,
    estimatedDurationMs: 1_500,
  },
  {
    id: 'local-procedural-music',
    tool: 'music',
    displayName: 'Local procedural music',
    description:
      'Seeded procedural music whose key, tempo and instruments follow the prompt, to the exact duration, offline. Not a neural model.',
    offers: [offer('local', 'procedural-music', 'second', 0.1, 30, optionsSchema(MusicOptions))],
    deterministic: true,
    estimatedDurationMs: 3_000,
  },
  {
    id: 'local-pocketsphinx',
    tool: 'transcription',
    displayName: 'PocketSphinx (local transcription)',
    description: 'Offline English speech recognition with timed segments (CMU PocketSphinx).',
    offers: [offer('local', 'pocketsphinx', 'minute', 1, 1, optionsSchema(NoOptions))],
    deterministic: true,
    estimatedDurationMs: 10_000,
  },
  {
    id: 'ffmpeg',
    tool: 'ffmpeg',
    displayName: 'ffmpeg',
    description:
      'Declared ffmpeg operations (transcode, resize, trim, concat, extract audio, thumbnail, GIF), run locally.',
    offers: [offer('local', 'ffmpeg', 'job', 1, 1, optionsSchema(NoOptions))],
    estimatedDurationMs: 3_000,
  },
  {
    id: 'local-render',
    tool: 'render',
    displayName: 'Local timeline render',
    description:
      'Composes image, video, audio and text layers on a timeline into one video or image with ffmpeg.',
    offers: [offer('local', 'render', 'second', 0.5, 5, optionsSchema(NoOptions))],
    estimatedDurationMs: 8_000,
  },
  {
    id: 'pipeline',
    tool: 'pipeline',
    displayName: 'Pipeline',
    description:
      'Runs each step once the steps it waits for have finished: steps that wait for nothing run at the same time. Each step is billed as its own tool.',
    offers: [offer('local', 'pipeline', 'job', 0, 1, optionsSchema(NoOptions))],
  },
];
