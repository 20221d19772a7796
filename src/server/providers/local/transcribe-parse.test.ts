import { describe, expect, it } from 'vitest';
import { parsePocketsphinx } from './transcribe-parse.ts';
import { toWebVtt } from './transcribe-vtt.ts';

/** Output of `pocketsphinx_continuous -time yes` for two utterances (trimmed from a real run). */
const OUTPUT = `no world this is a test
<s> 0.000 0.200 0.999600
no 0.210 0.560 0.184078
world 0.570 0.860 0.975892
[NOISE] 0.870 0.900 0.5
this 0.910 1.070 0.223248
</s> 1.080 1.170 1.000000
please open the door and close the window we will meet
<s> 4.860 5.050 0.999600
please 5.060 5.380 0.889573
open 5.390 5.710 1.000300
the 5.720 5.920 0.523313
door 5.930 6.120 0.602867
<sil> 6.130 6.170 0.655505
and(2) 6.180 6.770 0.735477
close(2) 6.780 7.970 0.997702
<sil> 7.980 8.050 0.672841
the 8.060 9.380 0.819777
window 9.390 10.760 0.794830
we 10.770 11.930 0.804990
will(2) 11.940 12.330 0.030249
meet 12.340 14.500 0.370310
</s> 14.510 14.910 0.972774
`;

describe('parsePocketsphinx', () => {
  const segments = parsePocketsphinx(OUTPUT);

  it('turns utterances into segments of words without fillers or pronunciation marks', () => {
    expect(segments.map((s) => s.text)).toEqual([
      'no world this',
      'please open the door and close',
      'the window we will',
      'meet',
    ]);
    expect(segments[0]).toMatchObject({ start: 0.21, end: 1.07 });
    expect(segments[0]!.words![1]).toEqual({ word: 'world', start: 0.57, end: 0.86, confidence: 0.976 });
  });

  it('clamps posteriors to 1 and cuts long utterances at a pause or before 6 s', () => {
    expect(segments[1]!.words![1]!.confidence).toBe(1);
    // "close" ends 2.9 s into its segment, so the next pause ends it; "meet" would make one 6.4 s long.
    expect(segments[2]).toMatchObject({ start: 8.06, end: 12.33 });
    expect(segments[3]).toMatchObject({ start: 12.34, end: 14.5 });
  });

  it('gives no segments for output without words', () => {
    expect(parsePocketsphinx('')).toEqual([]);
    expect(parsePocketsphinx('\n<s> 0.000 0.100 1.0\n<sil> 0.1 2.0 1.0\n</s> 2.0 2.1 1.0\n')).toEqual([]);
  });
});

describe('toWebVtt', () => {
  it('writes numbered cues with hour timestamps', () => {
    const vtt = toWebVtt([
      { start: 0.21, end: 1.07, text: 'no world' },
      { start: 3725.5, end: 3727, text: 'a --> b' },
    ]);
    expect(vtt).toBe(
      'WEBVTT\n\n1\n00:00:00.210 --> 00:00:01.070\nno world\n\n2\n01:02:05.500 --> 01:02:07.000\na -> b\n',
    );
  });
});
