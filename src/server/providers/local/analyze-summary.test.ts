import { describe, expect, it } from 'vitest';
import type { VideoFacts } from '../../../contract/video-analysis.ts';
import { focusOn } from './analyze-question.ts';
import { type SummaryInput, summarize } from './analyze-summary.ts';

const facts: VideoFacts = {
  duration_seconds: 12.5,
  size_bytes: 2_400_000,
  container: 'mov,mp4,m4a,3gp,3g2,mj2',
  container_name: 'QuickTime / MOV',
  bitrate: 1_500_000,
  video: {
    codec: 'h264',
    width: 1280,
    height: 720,
    fps: 30,
    bitrate: 1_400_000,
    pixel_format: 'yuv420p',
    rotation: 0,
  },
  audio: { codec: 'aac', sample_rate: 44100, channels: 2, channel_layout: 'stereo', bitrate: 128_000 },
};

const input: SummaryInput = {
  facts,
  scenes: [
    { index: 0, start: 0, end: 5 },
    { index: 1, start: 5, end: 12.5 },
  ],
  timeline: [
    {
      scene_index: 0,
      start: 0,
      end: 5,
      brightness: 0.9,
      dominant_colors: [{ hex: '#ffffff', name: 'white', share: 0.9 }],
      text: ['Sales grew'],
    },
    {
      scene_index: 1,
      start: 5,
      end: 12.5,
      brightness: 0.8,
      dominant_colors: [{ hex: '#0000ff', name: 'blue', share: 0.7 }],
      text: [],
    },
  ],
  onScreenText: [{ text: 'Sales grew 20%', start: 1, end: 4, confidence: 93 }],
  transcript: {
    text: 'our sales are growing fast',
    language: 'en',
    duration_seconds: 12.5,
    segments: [{ start: 6, end: 8, text: 'our sales are growing fast' }],
  },
  transcriptUnavailableReason: null,
  transcriptMaxSeconds: 120,
  suspicious: [],
};

describe('summarize', () => {
  it('says only what was measured or read', () => {
    expect(summarize(input)).toBe(
      'A 12.5 s 1280×720 h264 video at 30 fps, with aac sound (2 channels), 2.4 MB (QuickTime / MOV). ' +
        'It has 2 scenes, with cuts at 5 s. Mostly bright; the main colours are blue and white. ' +
        'On-screen text: “Sales grew 20%” (1 s). ' +
        'Speech (recognised automatically, may contain errors): “our sales are growing fast”.',
    );
  });

  it('says when only the start of the sound was transcribed', () => {
    const transcript = { ...input.transcript!, duration_seconds: 6 };
    expect(summarize({ ...input, transcript })).toContain('Speech (recognised automatically');
    expect(summarize({ ...input, transcript, transcriptMaxSeconds: 6 })).toContain(
      'Speech (only the first 6 s of sound were transcribed)',
    );
  });

  it('says why there is no transcript', () => {
    const text = summarize({
      ...input,
      transcript: null,
      transcriptUnavailableReason: 'The video has no sound.',
    });
    expect(text).toContain('No transcript: The video has no sound.');
  });
});

describe('focusOn', () => {
  it('finds the text and speech that mention the prompt’s words, with times', () => {
    const focus = focusOn('What is shown about sales?', input);
    expect(focus.keywords).toEqual(['sales']);
    expect(focus.matches).toEqual([
      { source: 'on_screen_text', start: 1, end: 4, text: 'Sales grew 20%' },
      { source: 'transcript', start: 6, end: 8, text: 'our sales are growing fast' },
    ]);
    expect(focus.answer).toContain('“Sales grew 20%” (on screen, 1 s)');
  });

  it('adds the measured part a prompt asks about, and says honestly when nothing matches', () => {
    expect(focusOn('which colours dominate?', input).answer).toContain('the main colours are blue and white');
    const none = focusOn('Is there a dog?', input);
    expect(none.matches).toEqual([]);
    expect(none.answer).toContain('Neither the on-screen text nor the speech mentions “dog”');
    expect(none.answer).toContain('I cannot identify objects');
  });
});
