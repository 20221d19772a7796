import type { Preset } from '../../../contract/presets.ts';
import type { SpeechEngineId } from './speech-voices.ts';

/** Where a preset's sample comes from. */
export type PresetPreview =
  /** A fixed URL (a team preset's own sample, for example a job's output). */
  | { kind: 'url'; url: string }
  /**
   * Published by the provider in its voice listing (ElevenLabs' `preview_url`), known once this server has
   * read that listing with the provider's key (published-voice-samples.ts); none while it has not.
   */
  | { kind: 'provider-listing'; provider: string; voice: string }
  /** No sample on this server: the provider publishes none (OpenAI's voices). */
  | { kind: 'none' }
  /** Spoken by a local speech engine on first request, then cached (GET /v2/presets/{id}/preview). */
  | { kind: 'local-speech'; engine: SpeechEngineId; voice: string; language: string }
  /** An image style's sample: `prompt` drawn by the local sketch engine in that style, on first request. */
  | { kind: 'local-image'; style: string; prompt: string };

/**
 * A preset as the server keeps it: the public fields but `preview_url`, which depends on where the server
 * is reached and on the preview source. Presets of any provider are plain data of this shape.
 */
export interface PresetRecord extends Omit<Preset, 'preview_url'> {
  preview: PresetPreview;
}
