import type { Preset } from '../../../contract/presets.ts';
import type { PresetRecord } from './preset-record.ts';

/** Where the samples providers publish for their voices are looked up (published-voice-samples.ts). */
export interface VoiceSampleSource {
  url(provider: string, voice: string): string | null;
}

/**
 * A preset's `preview_url`: the sample this server renders (under `publicUrl`, config PUBLIC_URL), the
 * provider's own, or the empty string when this server has no sample for it (spec 2.7 types the field as
 * a string, so "none" is the empty string rather than null or a URL that leads nowhere).
 */
export function previewUrl(p: PresetRecord, publicUrl: string, samples?: VoiceSampleSource): string {
  switch (p.preview.kind) {
    case 'url':
      return p.preview.url;
    case 'provider-listing':
      return samples?.url(p.preview.provider, p.preview.voice) ?? '';
    case 'none':
      return '';
    default:
      return `${publicUrl}/v2/presets/${p.id}/preview`;
  }
}

/** The public form of a preset (fields in the spec's order). */
export function presetView(p: PresetRecord, publicUrl: string, samples?: VoiceSampleSource): Preset {
  return {
    id: p.id,
    kind: p.kind,
    type: p.type,
    namespace: p.namespace,
    name: p.name,
    description: p.description,
    preview_url: previewUrl(p, publicUrl, samples),
    metadata: p.metadata,
    status: p.status,
    tools: p.tools,
  };
}
