import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Preset } from '../../../../contract/presets.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { StylePresets } from './style-presets.tsx';

function style(id: string, name: string, fragment: Record<string, unknown>): Preset {
  return {
    id,
    kind: 'provider_value',
    type: 'style',
    namespace: 'local',
    name,
    description: name,
    preview_url: `http://localhost/v2/presets/${id}/preview`,
    metadata: {},
    status: 'active',
    tools: { image: fragment },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the style presets above the form', () => {
  const presets = [
    style('preset_000000000001', 'Watercolour', {
      model: 'local-sketch',
      provider_options: { local: { style: 'watercolour' } },
    }),
    style('preset_000000000002', 'Bold', { prompt_suffix: 'bold' }),
  ];

  it('offers the styles of the form’s model (and those for any model)', async () => {
    stubFetch({ 'GET /v2/presets': () => json({ data: presets, has_more: false, next_cursor: null }) });
    renderWithQuery(<StylePresets tool="image" model="local-sketch" onPreset={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Apply style Watercolour' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply style Bold' })).toBeInTheDocument();
  });

  it('shows no style made for another model: an upscaler’s form has no Styles', async () => {
    stubFetch({
      'GET /v2/presets': () => json({ data: presets.slice(0, 1), has_more: false, next_cursor: null }),
    });
    // One query answers both: once the sketch form shows its style, the upscaler's has had its answer too.
    renderWithQuery(
      <>
        <StylePresets tool="image" model="local-sketch" onPreset={vi.fn()} />
        <StylePresets tool="image" model="local-upscale" onPreset={vi.fn()} />
      </>,
    );
    expect(await screen.findByRole('button', { name: 'Apply style Watercolour' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { name: 'Styles' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /Apply style/ })).toHaveLength(1);
  });
});
