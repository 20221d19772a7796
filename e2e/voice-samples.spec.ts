import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('a voice sample plays as sound on the Presets page and in the voice list; a voice without one says so', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);

  // A local voice: the engine's own speech, in the browser's audio player (no picture).
  await page.goto('/presets?preset_type=voice&namespace=local&q=flite%20slt');
  const card = page.getByRole('article', { name: 'Flite SLT' });
  const player = card.getByLabel('Sample of Flite SLT');
  await expect(player).toHaveAttribute('controls', '');
  await expect(card.getByRole('img')).toHaveCount(0);
  // Nothing is loading before anyone presses play (browsers fire loadstart on render).
  await expect(card.getByRole('status')).toHaveText('');
  // Played as a person would (the player's own play), it loads real audio the browser can decode.
  await player.evaluate((audio: HTMLAudioElement) => {
    audio.muted = true;
    return audio.play();
  });
  await expect
    .poll(() =>
      player.evaluate((audio: HTMLAudioElement) => Number.isFinite(audio.duration) && audio.duration),
    )
    .toBeGreaterThan(1);
  await expect(card.getByRole('status')).toHaveText('');
  await expect(card.getByRole('alert')).toHaveCount(0);

  // OpenAI publishes no samples, and OpenAI is not enabled here: said, not pictured.
  await page.goto('/presets?preset_type=voice&namespace=openai&q=alloy');
  const alloy = page.getByRole('article', { name: 'Alloy' });
  await expect(alloy).toContainText('No sample on this server');
  await expect(alloy.getByRole('img')).toHaveCount(0);
  await expect(alloy.locator('audio')).toHaveCount(0);

  // The speech tool's voice list plays the same sample from its play button.
  await page.goto('/playground?tool=speech&model=local-flite');
  await page.getByRole('button', { name: 'Browse voices' }).click();
  const voices = page.getByRole('list', { name: 'Voices' });
  await voices.getByRole('button', { name: 'Play sample of Flite SLT' }).click();
  // It stops by the same button while loading or playing, and nothing failed.
  await expect(voices.getByRole('button', { name: 'Stop sample of Flite SLT' })).toBeVisible();
  await expect(voices.getByRole('alert')).toHaveCount(0);
});
