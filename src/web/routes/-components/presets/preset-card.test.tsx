import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Preset } from '../../../../contract/presets.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { PresetCard } from './preset-card.tsx';
import { presetRunsHere } from './preset-runs-here.ts';

function voice(id: string, name: string, namespace: string, model: string, preview_url: string): Preset {
  return {
    id,
    kind: 'provider_value',
    type: 'voice',
    namespace,
    name,
    description: `${name}, for tests`,
    preview_url,
    metadata: {},
    status: 'active',
    tools: { speech: { model, voice: id } },
  };
}

function entry(model: string, available: boolean): PriceCatalogEntry {
  return { model, tool: 'speech', display_name: model, description: model, available, providers: [] };
}

const CATALOG = [entry('local-flite', true), entry('tts-1', false)];
const slt = voice(
  'preset_00000000000a',
  'slt',
  'local',
  'local-flite',
  'http://localhost/v2/presets/a/preview',
);
// The server drew a picture for a voice of a provider that is not enabled: no sample at all.
const alloy = voice(
  'preset_00000000000b',
  'Alloy',
  'openai',
  'tts-1',
  'http://localhost/v2/presets/b/preview',
);

function renderCards(presets: Preset[]) {
  const root = createRootRoute({ component: Outlet });
  const page = createRoute({
    getParentRoute: () => root,
    path: '/presets',
    component: () => (
      <ul>
        {presets.map((preset) => (
          <li key={preset.id}>
            <PresetCard
              preset={preset}
              picked={undefined}
              onRename={vi.fn()}
              onDelete={vi.fn()}
              runsHere={presetRunsHere(preset, CATALOG)}
            />
          </li>
        ))}
      </ul>
    ),
  });
  const router = createRouter({
    routeTree: root.addChildren([page]),
    history: createMemoryHistory({ initialEntries: ['/presets'] }),
  });
  render(<RouterProvider router={router} />);
}

describe('a preset card', () => {
  it('plays a voice this server speaks, and offers it in the playground', async () => {
    renderCards([slt]);
    const card = await screen.findByRole('article', { name: 'slt' });
    expect(card.querySelector('audio')).not.toBeNull();
    expect(within(card).getByRole('link', { name: /^Use\s*slt\s*in playground$/ })).toBeInTheDocument();
    expect(card).not.toHaveTextContent('Not enabled on this server');
  });

  it('marks a voice of a provider that is not enabled, with no picture for a sample and no way to use it here', async () => {
    renderCards([alloy]);
    const card = await screen.findByRole('article', { name: 'Alloy' });
    expect(card).toHaveTextContent('Not enabled on this server');
    expect(card).toHaveTextContent('No sample: this voice is not enabled on this server.');
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).queryByRole('link', { name: /in playground/ })).toBeNull();
  });
});
