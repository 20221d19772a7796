import { describe, expect, it } from 'vitest';
import type { Preset } from '../../../../contract/presets.ts';
import { presetSampleKind as sampleKind } from '../../../queries/presets.ts';
import { PresetSearch, presetTool, toggledPair } from './preset-search.ts';

const preset = (fields: Partial<Preset>): Preset => ({
  id: 'preset_0123456789ab',
  kind: 'provider_value',
  type: 'style',
  namespace: 'local',
  name: 'Ink',
  description: '',
  preview_url: 'http://h/v2/presets/preset_0123456789ab/preview',
  metadata: {},
  status: 'active',
  tools: {},
  ...fields,
});

describe('preset browser search', () => {
  it('keeps good filters and drops bad ones rather than failing the page', () => {
    expect(PresetSearch({ preset_type: 'style', metadata: ['mood:calm'], q: ' ink ' })).toEqual({
      preset_type: 'style',
      metadata: ['mood:calm'],
      q: 'ink',
    });
    expect(PresetSearch({ preset_type: '', metadata: ['no pair'], namespace: 'local' })).toEqual({
      namespace: 'local',
    });
  });

  it('toggles one metadata pair, leaving no empty list in the URL', () => {
    expect(toggledPair(undefined, 'mood:calm')).toEqual(['mood:calm']);
    expect(toggledPair(['mood:calm', 'medium:ink'], 'mood:calm')).toEqual(['medium:ink']);
    expect(toggledPair(['mood:calm'], 'mood:calm')).toBeUndefined();
  });

  it('opens the first tool with a usable fragment', () => {
    expect(presetTool(preset({ tools: { speech: { _error: 'gone' }, image: { style: 'x' } } }))).toBe(
      'image',
    );
    expect(presetTool(preset({ tools: { speech: { _error: 'gone' } } }))).toBeNull();
  });

  it('tells a spoken sample from a picture', () => {
    expect(sampleKind(preset({ type: 'voice', namespace: 'local' }))).toBe('audio');
    // A voice's sample is sound; a voice the server has no sample for has none, not a picture.
    expect(sampleKind(preset({ type: 'voice', namespace: 'elevenlabs', preview_url: 'https://p/v/1' }))).toBe(
      'audio',
    );
    expect(sampleKind(preset({ type: 'voice', namespace: 'openai', preview_url: '' }))).toBe('none');
    expect(sampleKind(preset({ preview_url: 'https://cdn.example/rachel.mp3' }))).toBe('audio');
    expect(sampleKind(preset({ preview_url: 'data:image/svg+xml;base64,AA' }))).toBe('image');
    expect(
      sampleKind(
        preset({ namespace: 'team', metadata: { tool: 'speech' }, preview_url: 'http://h/media/f/a' }),
      ),
    ).toBe('audio');
  });
});
