import { describe, expect, it } from 'vitest';
import { describePlan, planMusic } from './music-plan.ts';
import { compose } from './music-score.ts';

describe('planMusic', () => {
  it('makes calm, slow prompts slow and sparse, and energetic ones fast and busy with drums', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const calm = planMusic('calm piano slow', seed);
      const lively = planMusic('fast energetic drums', seed);
      expect(calm.tempo).toBeLessThan(80);
      expect(lively.tempo).toBeGreaterThan(125);
      expect(calm.energy).toBeLessThan(lively.energy);
      expect(calm).toMatchObject({ lead: 'piano', drums: 'none' });
      expect(lively.drums).toBe('full');
    }
  });

  it('takes mood, instruments, an explicit key, BPM and "no drums" from the words', () => {
    expect(planMusic('a sad melancholic tune', 7).mode).toMatch(/minor|dorian|phrygian/);
    expect(planMusic('happy sunny morning', 7).mode).toMatch(/major|lydian|mixolydian|pentatonic/);
    expect(planMusic('bells over strings', 7)).toMatchObject({ lead: 'bell', harmony: 'strings' });
    const key = planMusic('a waltz in Eb minor at 96 bpm', 7);
    expect(key).toMatchObject({ tonic: 51, mode: 'minor', tempo: 96 });
    expect(planMusic('dance music with no drums', 7).drums).toBe('none');
    expect(describePlan(key)).toMatch(/^D# minor, 96 BPM, \w+ over \w+, /);
  });

  it('lets provider_options.local.tempo win, and is the same for the same seed', () => {
    expect(planMusic('fast energetic drums', 1, 60).tempo).toBe(60);
    expect(planMusic('something', 42)).toEqual(planMusic('something', 42));
    const plans = new Set([1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(planMusic('something', seed))));
    expect(plans.size).toBeGreaterThan(1);
  });
});

describe('compose', () => {
  it('fills the duration with notes in time order, denser when energetic', () => {
    const calm = compose(planMusic('calm piano slow', 3), 60);
    const lively = compose(planMusic('fast energetic drums', 3), 60);
    for (const events of [calm, lively]) {
      expect(events.every((e, i) => i === 0 || e.start >= events[i - 1]!.start)).toBe(true);
      expect(events.at(-1)!.start).toBeGreaterThan(55);
      expect(events.every((e) => e.start < 60)).toBe(true);
    }
    expect(lively.length).toBeGreaterThan(calm.length * 2);
    expect(calm.some((e) => e.instrument === 'kick')).toBe(false);
    expect(lively.filter((e) => e.instrument === 'kick').length).toBeGreaterThan(100);
  });
});
