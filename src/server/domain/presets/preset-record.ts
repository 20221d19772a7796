import type { Preset } from '../../../contract/presets.ts';
import type { SpeechEngineId } from './speech-voices.ts';

/** Where a preset's sample comes from. */
export type PresetPreview =
  /** Hosted by the provider (for example a voice sample on its CDN). */
  | { kind: 'url'; url: string }
  /** Spoken by a local speech engine on first request, then cached (GET /v2/presets/{id}/preview). */
  | { kind: 'local-speech'; engine: SpeechEngineId; voice: string; language: string }
  /**
   * Drawn by the local sketch engine on first request, then cached: `prompt` in the image style preset
   * `style` (an image style's sample), or with no style (a picture standing for a preset with no sample).
   */
  | { kind: 'local-image'; style: string | null; prompt: string };

/**
 * A preset as the server keeps it: the public fields but `preview_url`, which depends on where the server
 * is reached and on the preview source. Presets of any provider are plain data of this shape.
 */
export interface PresetRecord extends Omit<Preset, 'preview_url'> {
  preview: PresetPreview;
}
