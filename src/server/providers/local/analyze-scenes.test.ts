import { describe, expect, it } from 'vitest';
import { planSamples } from './analyze-frames.ts';
import { filterValue, MAX_SCENES, parseSceneScores, scenesFrom } from './analyze-scenes.ts';

describe('parseSceneScores', () => {
  it('reads the time and score of each frame the metadata filter printed', () => {
    const text = [
      'frame:0    pts:0       pts_time:0',
      'lavfi.scene_score=0.000000',
      'frame:1    pts:10240   pts_time:1',
      'lavfi.scene_score=0.912000',
      'frame:2    pts:11264   pts_time:1.1',
    ].join('\n');
    expect(parseSceneScores(text)).toEqual([
      { time: 0, score: 0 },
      { time: 1, score: 0.912 },
    ]);
  });
});

describe('scenesFrom', () => {
  it('cuts where the score passes the threshold and covers the whole video', () => {
    const frames = [
      { time: 0, score: 0 },
      { time: 1, score: 0.9 },
      { time: 1.1, score: 0.1 },
      { time: 2.5, score: 0.31 },
    ];
    expect(scenesFrom(frames, 4)).toEqual([
      { index: 0, start: 0, end: 1 },
      { index: 1, start: 1, end: 2.5 },
      { index: 2, start: 2.5, end: 4 },
    ]);
  });

  it('keeps the stronger of two cuts closer than half a second, and none at the very ends', () => {
    const frames = [
      { time: 0.2, score: 1 },
      { time: 2, score: 0.5 },
      { time: 2.3, score: 0.8 },
      { time: 3.9, score: 1 },
    ];
    expect(scenesFrom(frames, 4).map((s) => s.start)).toEqual([0, 2.3]);
  });

  it(`keeps at most ${MAX_SCENES} scenes, the strongest cuts`, () => {
    const frames = Array.from({ length: 100 }, (_, i) => ({ time: i + 1, score: 0.4 + (i % 7) / 20 }));
    const scenes = scenesFrom(frames, 101);
    expect(scenes).toHaveLength(MAX_SCENES);
    expect(scenes.at(-1)!.end).toBe(101);
  });
});

describe('planSamples', () => {
  it('takes the middle of each scene as its keyframe, plus samples for text in long scenes', () => {
    const samples = planSamples(
      [
        { index: 0, start: 0, end: 1 },
        { index: 1, start: 1, end: 13 },
      ],
      13,
    );
    expect(samples.filter((s) => s.keyframe)).toEqual([
      { time: 0.5, sceneIndex: 0, keyframe: true },
      { time: 7, sceneIndex: 1, keyframe: true },
    ]);
    const extra = samples.filter((s) => !s.keyframe);
    expect(extra.map((s) => s.time)).toEqual([4.5, 10.5]);
    expect(extra.every((s) => s.sceneIndex === 1)).toBe(true);
  });

  it('samples a long video more sparsely', () => {
    const samples = planSamples([{ index: 0, start: 0, end: 3600 }], 3600);
    expect(samples.length).toBeLessThanOrEqual(60);
    expect(samples.length).toBeGreaterThan(50);
  });
});

describe('filterValue', () => {
  it('escapes a path for a filter option inside a filtergraph', () => {
    expect(filterValue("/tmp/a:b,c'd")).toBe("/tmp/a\\\\:b\\,c\\\\\\'d");
  });
});
