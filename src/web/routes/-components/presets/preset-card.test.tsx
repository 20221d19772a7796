import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { fireEvent, render, screen, within } from '@testing-library/react';
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

const CATALOG = [
  entry('local-flite', true),
  entry('tts-1', false),
  entry('gpt-4o-mini-tts', true),
  entry('eleven-multilingual-v2', true),
];
const slt = voice(
  'preset_00000000000a',
  'slt',
  'local',
  'local-flite',
  'http://localhost/v2/presets/a/preview',
);
// A voice of a provider that is not enabled: the server has no sample for it.
const alloy = voice('preset_00000000000b', 'Alloy', 'openai', 'tts-1', '');
// Enabled, but OpenAI publishes no samples.
const marin = voice('preset_00000000000c', 'Marin', 'openai', 'gpt-4o-mini-tts', '');
// ElevenLabs' own sample, from its voice listing.
const aria = voice(
  'preset_00000000000d',
  'Aria',
  'elevenlabs',
  'eleven-multilingual-v2',
  'https://storage.example/premade/voices/aria/sample.mp3',
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
    expect(card).toHaveTextContent('No sample on this server: this voice is not enabled here.');
    expect(within(card).queryByRole('img')).toBeNull();
    expect(card.querySelector('audio')).toBeNull();
    expect(within(card).queryByRole('link', { name: /in playground/ })).toBeNull();
  });

  it('says an enabled voice without a published sample has none here, and offers it in the playground', async () => {
    renderCards([marin]);
    const card = await screen.findByRole('article', { name: 'Marin' });
    expect(card).toHaveTextContent('No sample on this server: use it in the playground to hear it.');
    expect(within(card).queryByRole('img')).toBeNull();
    expect(card.querySelector('audio')).toBeNull();
    expect(within(card).getByRole('link', { name: /^Use\s*Marin\s*in playground$/ })).toBeInTheDocument();
  });

  it("plays a provider's own sample in an audio player, saying when it loads and when it cannot play", async () => {
    renderCards([aria]);
    const card = await screen.findByRole('article', { name: 'Aria' });
    const player = within(card).getByLabelText('Sample of Aria');
    expect(player.tagName).toBe('AUDIO');
    expect(player).toHaveAttribute('src', aria.preview_url);
    expect(player).toHaveAttribute('controls');
    // Nothing is fetched before it is played.
    expect(player).toHaveAttribute('preload', 'none');
    expect(within(card).queryByRole('img')).toBeNull();
    const status = within(card).getByRole('status');
    expect(status).toHaveTextContent('');
    // Browsers start a (suspended) load on render, even with preload="none": nothing is loading yet.
    fireEvent.loadStart(player);
    expect(status).toHaveTextContent('');
    fireEvent.play(player);
    expect(status).toHaveTextContent('Loading the sample…');
    fireEvent.playing(player);
    expect(status).toHaveTextContent('');
    fireEvent.error(player);
    expect(within(card).getByRole('alert')).toHaveTextContent('The sample could not be played.');
    // Pressing play again is a new try.
    fireEvent.play(player);
    expect(within(card).queryByRole('alert')).toBeNull();
  });
});
