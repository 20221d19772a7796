import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Preset } from '../../../../contract/presets.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { VoiceList } from './voice-list.tsx';

function voice(
  id: string,
  name: string,
  namespace: string,
  model: string,
  preview_url = `http://localhost/v2/presets/${id}/preview`,
): Preset {
  return {
    id,
    kind: 'provider_value',
    type: 'voice',
    namespace,
    name,
    description: `${name}, for tests`,
    preview_url,
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
            // OpenAI publishes no samples: the server gives none.
            voice('preset_00000000000b', 'Alloy', 'openai', 'tts-1', ''),
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

/** The audio elements the player made, with play() answered as the test says (jsdom plays nothing). */
function stubAudio(play: () => Promise<void> = () => Promise.resolve()) {
  const made: HTMLMediaElement[] = [];
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    made.push(this);
    return play();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  return made;
}

afterEach(() => vi.restoreAllMocks());

describe('playing a voice sample from the list', () => {
  const aria = voice(
    'preset_00000000000d',
    'Aria',
    'elevenlabs',
    'eleven-multilingual-v2',
    'https://storage.example/premade/voices/aria/sample.mp3',
  );

  function renderList() {
    stubFetch({ 'GET /v2/presets': () => json({ data: [aria], next_cursor: null }) });
    renderWithQuery(<VoiceList tool="speech" model="eleven-multilingual-v2" current="" onChoose={vi.fn()} />);
  }

  it("plays the provider's own sample: loading until the sound starts, then a stop button", async () => {
    const made = stubAudio();
    renderList();
    const play = await screen.findByRole('button', { name: 'Play sample of Aria' });
    await userEvent.click(play);
    expect(made).toHaveLength(1);
    expect(made[0]!.src).toBe(aria.preview_url);
    const busy = screen.getByRole('button', { name: 'Stop sample of Aria' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Loading the sample…');
    act(() => {
      made[0]!.dispatchEvent(new Event('playing'));
    });
    expect(screen.getByRole('button', { name: 'Stop sample of Aria' })).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByRole('status')).toBeNull();
    act(() => {
      made[0]!.dispatchEvent(new Event('ended'));
    });
    expect(screen.getByRole('button', { name: 'Play sample of Aria' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('says when the sample cannot be played (the file gone, the network down)', async () => {
    const made = stubAudio();
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Play sample of Aria' }));
    act(() => {
      made[0]!.dispatchEvent(new Event('error'));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The sample could not be played.');
    expect(screen.getByRole('button', { name: 'Play sample of Aria' })).toBeEnabled();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says so when the browser refuses to play, and stopping while loading is no failure', async () => {
    stubAudio(() => Promise.reject(new DOMException('not allowed', 'NotAllowedError')));
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: 'Play sample of Aria' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The sample could not be played.');

    vi.restoreAllMocks();
    let abort: (error: unknown) => void = () => undefined;
    stubAudio(() => new Promise((_, reject) => (abort = reject)));
    await userEvent.click(screen.getByRole('button', { name: 'Play sample of Aria' }));
    await userEvent.click(screen.getByRole('button', { name: 'Stop sample of Aria' }));
    await act(async () => abort(new DOMException('interrupted by pause', 'AbortError')));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Play sample of Aria' })).toBeInTheDocument();
  });
});
