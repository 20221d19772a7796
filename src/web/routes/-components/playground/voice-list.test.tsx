import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Preset } from '../../../../contract/presets.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { VoiceList } from './voice-list.tsx';

function voice(id: string, name: string, namespace: string, model: string): Preset {
  return {
    id,
    kind: 'provider_value',
    type: 'voice',
    namespace,
    name,
    description: `${name}, for tests`,
    preview_url: `http://localhost/v2/presets/${id}/preview`,
    metadata: { language: 'en' },
    status: 'active',
    tools: { speech: { model, voice: id } },
  };
}

describe('the playground’s voice list', () => {
  it('plays the sample of a voice this server speaks, and says a provider’s voice has none', async () => {
    stubFetch({
      'GET /v2/presets': () =>
        json({
          data: [
            voice('preset_00000000000a', 'slt', 'local', 'local-flite'),
            voice('preset_00000000000b', 'Alloy', 'openai', 'tts-1'),
          ],
          next_cursor: null,
        }),
    });
    renderWithQuery(<VoiceList tool="speech" model="local-flite" current="" onChoose={vi.fn()} />);
    const local = (await screen.findByRole('button', { name: 'Play sample of slt' })).closest('li')!;
    expect(within(local).getByRole('button', { name: 'Play sample of slt' })).toBeVisible();
    expect(local).not.toHaveTextContent('no sample');
    const openai = screen.getAllByRole('listitem').find((item) => item.textContent?.includes('Alloy'))!;
    expect(within(openai).queryByRole('button', { name: /sample of Alloy/ })).toBeNull();
    expect(openai).toHaveTextContent('no sample on this server');
  });
});
