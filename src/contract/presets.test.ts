import { describe, expect, it } from 'vitest';
import { getPreset, Preset, PresetId, PresetListQuery } from './presets.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const preset = {
  id: 'preset_0123456789ab',
  kind: 'provider_value',
  type: 'voice',
  namespace: 'elevenlabs',
  name: 'Rachel',
  description: 'Calm narration',
  preview_url: 'https://example.com/rachel.mp3',
  metadata: { gender: 'female', languages: ['en', 'fr'] },
  status: 'active',
  tools: { speech: { voice: 'preset_0123456789ab' }, video: { _error: 'no mapping for this provider' } },
};

describe('preset id (spec 2.7, 4.7)', () => {
  it('has the form preset_<12 hex characters>', () => {
    expect(PresetId.safeParse('preset_0123456789ab').success).toBe(true);
    expect(PresetId.safeParse('preset_0123456789a').success).toBe(false);
    expect(PresetId.safeParse('preset_0123456789abc').success).toBe(false);
    expect(PresetId.safeParse('preset_0123456789AB').success).toBe(false);
    expect(PresetId.safeParse('preset_0123456789ag').success).toBe(false);
    expect(PresetId.safeParse('voice_0123456789ab').success).toBe(false);
    expect(issuesOf(getPreset.params, { id: 'preset_zz' })).toEqual(['id: invalid_format']);
  });

  it('is readable without authentication', () => {
    expect(getPreset.auth).toBe('optional');
    expect(getPreset.errors).toContain('not_found');
  });
});

describe('Preset (spec 2.7)', () => {
  it('parses every field, including a broken fragment as { _error }', () => {
    const parsed = parseOk(Preset, preset);
    expect(parsed.tools.video).toEqual({ _error: 'no mapping for this provider' });
    expect(parsed.metadata.languages).toEqual(['en', 'fr']);
  });

  it('is always kind provider_value, status active or deprecated', () => {
    expect(issuesOf(Preset, { ...preset, kind: 'user_value' })).toEqual(['kind: invalid_value']);
    expect(issuesOf(Preset, { ...preset, status: 'deprecated' })).toEqual([]);
    expect(issuesOf(Preset, { ...preset, status: 'retired' })).toEqual(['status: invalid_value']);
  });

  it('has metadata values that are strings or arrays of strings', () => {
    expect(issuesOf(Preset, { ...preset, metadata: { age: 30 } })).not.toEqual([]);
    expect(issuesOf(Preset, { ...preset, metadata: { tags: ['a', 1] } })).not.toEqual([]);
  });

  it('keys tools by tool name', () => {
    expect(issuesOf(Preset, { ...preset, tools: { voice: { voice: 'x' } } })).not.toEqual([]);
  });
});

describe('GET /presets filters', () => {
  it('parses type, namespace and metadata key:value pairs', () => {
    const query = parseOk(PresetListQuery, {
      type: 'voice',
      namespace: 'elevenlabs,openai',
      metadata: 'gender:female,language:en,language:fr',
    });
    expect(query.type).toEqual(['voice']);
    expect(query.namespace).toEqual(['elevenlabs', 'openai']);
    expect(query.metadata).toEqual([
      { key: 'gender', value: 'female' },
      { key: 'language', value: 'en' },
      { key: 'language', value: 'fr' },
    ]);
    expect(issuesOf(PresetListQuery, { metadata: 'female' })).toEqual(['metadata.0: invalid_format']);
  });
});
