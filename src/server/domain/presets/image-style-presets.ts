import { IMAGE_STYLES, imageStylePresetId } from './image-styles.ts';
import type { PresetRecord } from './preset-record.ts';

/** What every style sample shows, so samples compare: one scene, drawn in each style. */
export const STYLE_SAMPLE_PROMPT = 'a lighthouse on a cliff above the sea at dusk';

/**
 * Every image style as a `style` preset of namespace `local`: its fragment picks the local sketch model
 * and names the style in that model's `provider_options.local.style`.
 */
export const IMAGE_STYLE_PRESETS: readonly PresetRecord[] = IMAGE_STYLES.map((s) => {
  const id = imageStylePresetId(s.slug);
  return {
    id,
    kind: 'provider_value',
    type: 'style',
    namespace: 'local',
    name: s.name,
    description: s.description,
    preview: { kind: 'local-image', style: id, prompt: STYLE_SAMPLE_PROMPT },
    metadata: { engine: 'local-sketch', model: 'local-sketch', style: s.slug, ...s.metadata },
    status: 'active',
    tools: { image: { model: 'local-sketch', provider_options: { local: { style: id } } } },
  };
});
