import type { ModelDefinition } from '../types.ts';
import { deprecated, durationRange, model, retired, textLength, textRange, withLifecycle } from './define.ts';
import * as o from './native-options.ts';
import { offer } from './offer.ts';

/*
 * OpenAI's deprecations page: tts-1, tts-1-hd and gpt-4o-mini-tts shut down on 2027-01-06 (OpenAI names
 * gpt-realtime-2.1-mini, a Realtime API model that /audio/speech does not take, so the replacement here
 * is an ElevenLabs voice); whisper-1 and the gpt-4o transcription models on 2027-02-26, for gpt-transcribe.
 */
const OPENAI_TTS_NOTE = 'OpenAI recommends gpt-realtime-2.1-mini, which runs on the Realtime API only.';
const OPENAI_STT_SHUTDOWN = deprecated('2027-02-26', 'gpt-transcribe');

/** Speech, music and transcription models of external providers. */
export const AUDIO_MODELS: readonly ModelDefinition[] = [
  model(
    'kokoro-82m',
    'speech',
    'Kokoro 82M',
    'Small open text-to-speech model with natural English voices.',
    [
      offer('fal', 'fal-ai/kokoro/american-english', 'thousand_characters', 2, 0.2, o.FAL_KOKORO),
      offer(
        'replicate',
        'jaaari/kokoro-82m:f559560eb822dc509045f3921a1921234918b91739db4bf3daab2169b71c7a13',
        'thousand_characters',
        1,
        0.2,
        o.REPLICATE_KOKORO,
      ),
    ],
    { estimatedDurationMs: 5_000 },
  ),
  model(
    'minimax-speech-02-hd',
    'speech',
    'MiniMax Speech-02 HD',
    'Expressive multilingual speech with emotion control.',
    [
      offer('fal', 'fal-ai/minimax/speech-02-hd', 'thousand_characters', 10, 0.2, o.FAL_MINIMAX_SPEECH),
      offer('replicate', 'minimax/speech-02-hd', 'thousand_characters', 10, 0.2, o.REPLICATE_MINIMAX_SPEECH),
    ],
    { fields: { text: textLength(5000) }, estimatedDurationMs: 8_000 },
  ),
  model(
    'tts-1',
    'speech',
    'OpenAI TTS-1',
    "OpenAI's low-latency text-to-speech.",
    [offer('openai', 'tts-1', 'thousand_characters', 1.5, 0.2, o.OPENAI_TTS)],
    { estimatedDurationMs: 3_000, lifecycle: deprecated('2027-01-06', 'eleven-flash-v2.5', OPENAI_TTS_NOTE) },
  ),
  model(
    'tts-1-hd',
    'speech',
    'OpenAI TTS-1 HD',
    "OpenAI's higher-quality text-to-speech.",
    [offer('openai', 'tts-1-hd', 'thousand_characters', 3, 0.2, o.OPENAI_TTS)],
    {
      estimatedDurationMs: 5_000,
      lifecycle: deprecated('2027-01-06', 'eleven-multilingual-v2', OPENAI_TTS_NOTE),
    },
  ),
  model(
    'gpt-4o-mini-tts',
    'speech',
    'GPT-4o mini TTS',
    'OpenAI speech you can steer with instructions (tone, pace, accent).',
    [offer('openai', 'gpt-4o-mini-tts', 'thousand_characters', 1.2, 0.2, o.OPENAI_TTS_INSTRUCTED)],
    { estimatedDurationMs: 4_000, lifecycle: deprecated('2027-01-06', 'eleven-v3', OPENAI_TTS_NOTE) },
  ),
  model(
    'eleven-multilingual-v2',
    'speech',
    'ElevenLabs Multilingual v2',
    'Lifelike speech in 29 languages.',
    [offer('elevenlabs', 'eleven_multilingual_v2', 'thousand_characters', 30, 0.2, o.ELEVENLABS_TTS)],
    { estimatedDurationMs: 5_000 },
  ),
  model(
    'eleven-turbo-v2.5',
    'speech',
    'ElevenLabs Turbo v2.5',
    'Fast multilingual speech at lower cost.',
    [offer('elevenlabs', 'eleven_turbo_v2_5', 'thousand_characters', 15, 0.2, o.ELEVENLABS_TTS)],
    { estimatedDurationMs: 3_000 },
  ),
  model(
    'eleven-flash-v2.5',
    'speech',
    'ElevenLabs Flash v2.5',
    'Lowest-latency ElevenLabs speech.',
    [offer('elevenlabs', 'eleven_flash_v2_5', 'thousand_characters', 15, 0.2, o.ELEVENLABS_TTS)],
    { estimatedDurationMs: 2_000 },
  ),
  model(
    'eleven-v3',
    'speech',
    'ElevenLabs v3',
    'The most expressive ElevenLabs model, with audio tags.',
    [offer('elevenlabs', 'eleven_v3', 'thousand_characters', 30, 0.2, o.ELEVENLABS_TTS)],
    { fields: { text: textLength(3000) }, estimatedDurationMs: 8_000 },
  ),

  model(
    'stable-audio',
    'music',
    'Stable Audio Open',
    "Stability AI's open model for music and sound, up to 47 s.",
    [offer('fal', 'fal-ai/stable-audio', 'second', 0.5, 30, o.FAL_STABLE_AUDIO)],
    { fields: { duration: durationRange(1, 47) }, estimatedDurationMs: 20_000 },
  ),
  model(
    'lyria-2',
    'music',
    'Lyria 2',
    "Google's music model: 30 s instrumental clips.",
    [offer('fal', 'fal-ai/lyria2', 'second', 0.34, 30, o.FAL_LYRIA)],
    { fields: { duration: { enum: [30], description: 'Always 30 seconds.' } }, estimatedDurationMs: 30_000 },
  ),
  model(
    'minimax-music-1.5',
    'music',
    'MiniMax Music 1.5',
    'A song from a style prompt (10 to 300 characters), with lyrics from provider_options.fal.prompt; the model picks its length.',
    // fal.ai/models/fal-ai/minimax-music/v1.5: `lyrics_prompt` is the style (10..300 characters),
    // `prompt` the lyrics (10..600); it takes no duration and fal bills per generation.
    [offer('fal', 'fal-ai/minimax-music/v1.5', 'job', 3.5, 1, o.FAL_MINIMAX_MUSIC)],
    { fields: { prompt: textRange(10, 300) }, estimatedDurationMs: 60_000 },
  ),
  model(
    'minimax-music-01',
    'music',
    'MiniMax Music-01',
    'Up to a minute of music with vocals; the prompt is sung as lyrics and the model picks the length.',
    // replicate.com/minimax/music-01 takes no duration and is priced per output, not per second.
    [offer('replicate', 'minimax/music-01', 'job', 3.5, 1, o.REPLICATE_MINIMAX_MUSIC)],
    { estimatedDurationMs: 60_000 },
  ),
  model(
    'musicgen',
    'music',
    'MusicGen',
    "Meta's MusicGen (stereo melody large), up to 30 s.",
    [
      offer(
        'replicate',
        'meta/musicgen:671ac645ce5e552cc63a54a2bbff63fcf798043055d2dac5fc9e36a837eedcfb',
        'second',
        0.2,
        8,
        o.REPLICATE_MUSICGEN,
      ),
    ],
    { fields: { duration: durationRange(1, 30) }, estimatedDurationMs: 40_000 },
  ),
  model(
    'eleven-music',
    'music',
    'Eleven Music',
    'ElevenLabs music with vocals or instrumental, 10 s to 5 min.',
    [offer('elevenlabs', 'music_v1', 'second', 1.4, 30, o.ELEVENLABS_MUSIC)],
    { fields: { duration: durationRange(10, 300) }, estimatedDurationMs: 60_000 },
  ),

  model(
    'whisper-large-v3',
    'transcription',
    'Whisper large-v3',
    "OpenAI's open Whisper model, hosted, with timed segments.",
    [
      // fal's endpoint list no longer carries fal-ai/whisper (checked 2026-11-27); wizper remains.
      withLifecycle(
        offer('fal', 'fal-ai/whisper', 'minute', 0.5, 1, o.FAL_WHISPER),
        retired('2026-11-27', 'wizper'),
      ),
      offer(
        'replicate',
        'openai/whisper:8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e',
        'minute',
        0.5,
        1,
        o.REPLICATE_WHISPER,
      ),
    ],
    { estimatedDurationMs: 20_000 },
  ),
  model(
    'wizper',
    'transcription',
    'Wizper',
    'Whisper v3 optimised by fal for speed.',
    [offer('fal', 'fal-ai/wizper', 'minute', 0.3, 1, o.FAL_WHISPER)],
    { estimatedDurationMs: 10_000 },
  ),
  model(
    'whisper-1',
    'transcription',
    'OpenAI Whisper',
    "OpenAI's hosted Whisper with timed segments.",
    [offer('openai', 'whisper-1', 'minute', 0.6, 1, o.OPENAI_TRANSCRIBE)],
    { estimatedDurationMs: 15_000, lifecycle: OPENAI_STT_SHUTDOWN },
  ),
  model(
    'gpt-4o-transcribe',
    'transcription',
    'GPT-4o Transcribe',
    "OpenAI's most accurate transcription (no timed segments).",
    [offer('openai', 'gpt-4o-transcribe', 'minute', 0.6, 1, o.OPENAI_TRANSCRIBE)],
    { estimatedDurationMs: 15_000, lifecycle: OPENAI_STT_SHUTDOWN },
  ),
  model(
    'gpt-4o-mini-transcribe',
    'transcription',
    'GPT-4o mini Transcribe',
    'Cheaper GPT-4o transcription (no timed segments).',
    [offer('openai', 'gpt-4o-mini-transcribe', 'minute', 0.3, 1, o.OPENAI_TRANSCRIBE)],
    { estimatedDurationMs: 10_000, lifecycle: OPENAI_STT_SHUTDOWN },
  ),
  model(
    'gpt-transcribe',
    'transcription',
    'GPT Transcribe',
    "OpenAI's current file transcription model (no timed segments: one segment per file).",
    // In openai-node's AudioModel since 2026; priced at $0.0045 a minute.
    [offer('openai', 'gpt-transcribe', 'minute', 0.45, 1, o.OPENAI_TRANSCRIBE)],
    { estimatedDurationMs: 12_000 },
  ),
  model(
    'scribe-v1',
    'transcription',
    'ElevenLabs Scribe',
    'Transcription in 99 languages with word timings and speaker labels.',
    [offer('elevenlabs', 'scribe_v1', 'minute', 0.7, 1, o.ELEVENLABS_SCRIBE)],
    { estimatedDurationMs: 15_000 },
  ),
];
