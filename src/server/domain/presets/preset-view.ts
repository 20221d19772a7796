import type { Preset } from '../../../contract/presets.ts';
import type { PresetRecord } from './preset-record.ts';

/** The public form of a preset (fields in the spec's order); `publicUrl` is config PUBLIC_URL. */
export function presetView(p: PresetRecord, publicUrl: string): Preset {
  const previewUrl = p.preview.kind === 'url' ? p.preview.url : `${publicUrl}/v2/presets/${p.id}/preview`;
  return {
    id: p.id,
    kind: p.kind,
    type: p.type,
    namespace: p.namespace,
    name: p.name,
    description: p.description,
    preview_url: previewUrl,
    metadata: p.metadata,
    status: p.status,
    tools: p.tools,
  };
}
