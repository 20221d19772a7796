import { describe, expect, it } from 'vitest';
import { PresetListQuery } from '../../../contract/presets.ts';
import { PRESETS, PresetCatalog, type PresetFilter } from './preset-catalog.ts';
import type { PresetRecord } from './preset-record.ts';
import { presetView } from './preset-view.ts';

/** Presets of other providers are plain data: these stand in for them. */
const record = (id: string, name: string, fields: Partial<PresetRecord> = {}): PresetRecord => ({
  id,
  kind: 'provider_value',
  type: 'voice',
  namespace: 'elevenlabs',
  name,
  description: `${name} voice`,
  preview: { kind: 'url', url: `https://example.com/${id}.mp3` },
  metadata: {},
  status: 'active',
  tools: { speech: { voice: id } },
  ...fields,
});

const rachel = record('preset_00000000000a', 'Rachel', {
  preview: { kind: 'url', url: 'https://cdn.example/rachel.mp3' },
  metadata: { gender: 'female', languages: ['en', 'fr'] },
});
const adam = record('preset_00000000000b', 'adam', { metadata: { gender: 'male', languages: ['en'] } });
const alloy = record('preset_00000000000c', 'Alloy', {
  namespace: 'openai',
  status: 'deprecated',
  tools: { speech: { voice: 'preset_00000000000c' }, video: { _error: 'no mapping' } },
});
const catalog = new PresetCatalog([rachel, adam, alloy]);
const filterOf = (query: Record<string, string>): PresetFilter => {
  const { limit: _limit, cursor: _cursor, ...filter } = PresetListQuery.parse(query);
  return filter;
};
const names = (query: Record<string, string>) => catalog.page(filterOf(query), 100).data.map((p) => p.name);

describe('PresetCatalog', () => {
  it('sorts by name as people do, and pages with a cursor', () => {
    expect(names({})).toEqual(['adam', 'Alloy', 'Rachel']);
    const first = catalog.page({}, 2);
    expect(first.data.map((p) => p.name)).toEqual(['adam', 'Alloy']);
    const second = catalog.page({}, 2, first.next_cursor!);
    expect(second).toEqual({ data: [rachel], next_cursor: null });
  });

  it('matches metadata arrays by containment, any of one key, all of several keys', () => {
    expect(names({ metadata: 'languages:fr' })).toEqual(['Rachel']);
    expect(names({ metadata: 'gender:male,gender:female' })).toEqual(['adam', 'Rachel']);
    expect(names({ metadata: 'gender:male,languages:fr' })).toEqual([]);
    expect(names({ metadata: 'gender:FEMALE' })).toEqual(['Rachel']);
  });

  it('filters by namespace, status and tool (a broken mapping is no fragment)', () => {
    expect(names({ namespace: 'openai' })).toEqual(['Alloy']);
    expect(names({ status: 'active' })).toEqual(['adam', 'Rachel']);
    expect(names({ tool: 'video' })).toEqual([]);
    expect(names({ tool: 'speech,video' })).toEqual(['adam', 'Alloy', 'Rachel']);
  });

  it('refuses two presets with one id', () => {
    expect(() => new PresetCatalog([adam, adam])).toThrow('share an id');
  });

  it('points preview_url at the provider or at this server, or leaves it empty when there is no sample', () => {
    expect(presetView(rachel, 'http://h').preview_url).toBe('https://cdn.example/rachel.mp3');
    const local = PRESETS.page({ namespace: ['local'] }, 1).data[0]!;
    expect(presetView(local, 'http://h').preview_url).toBe(`http://h/v2/presets/${local.id}/preview`);
    const listed = {
      ...adam,
      preview: { kind: 'provider-listing', provider: 'elevenlabs', voice: 'v-adam' } as const,
    };
    const published = {
      url: (provider: string, voice: string) => (voice === 'v-adam' ? `https://p/${provider}.mp3` : null),
    };
    expect(presetView(listed, 'http://h', published).preview_url).toBe('https://p/elevenlabs.mp3');
    // Not (yet) in the provider's listing, or the provider not enabled: no sample, not a made-up one.
    expect(
      presetView({ ...listed, preview: { ...listed.preview, voice: 'other' } }, 'http://h', published)
        .preview_url,
    ).toBe('');
    expect(presetView(listed, 'http://h').preview_url).toBe('');
    expect(presetView({ ...adam, preview: { kind: 'none' } }, 'http://h').preview_url).toBe('');
  });
});
