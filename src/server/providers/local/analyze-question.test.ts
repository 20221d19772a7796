import { describe, expect, it } from 'vitest';
import { classifyQuestion, focusOn, summaryFor } from './analyze-question.ts';
import type { SummaryInput } from './analyze-summary.ts';

const input: SummaryInput = {
  facts: {
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
  },
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
      text: ['Sales grew 20%'],
    },
    {
      scene_index: 1,
      start: 5,
      end: 12.5,
      brightness: 0.1,
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
const silent: SummaryInput = {
  ...input,
  facts: { ...input.facts, audio: null },
  onScreenText: [],
  transcript: null,
  transcriptUnavailableReason: 'The video has no sound.',
};

describe('classifyQuestion', () => {
  it.each([
    ['What text appears, and what is said?', ['text', 'speech'], []],
    ['What is written on the sign?', ['text'], []],
    ['Who is talking?', ['speech', 'objects'], []],
    ['How many scenes are there?', ['scenes'], []],
    ['How many cuts does it have?', ['scenes'], []],
    ['What happens in the video?', ['events'], []],
    ['What is this clip about?', ['events'], []],
    ['Which colours dominate?', ['colours'], []],
    ['How long is it?', ['facts'], []],
    ['Does it mention the weather?', ['search'], ['weather']],
    ['Is "sunny" mentioned anywhere?', ['search'], ['sunny']],
    ['Is there a dog?', ['search', 'objects'], ['dog']],
    ['Why?', [], []],
  ])('%s → %j, looking for %j', (question, kinds, keywords) => {
    expect(classifyQuestion(question)).toEqual({ kinds, keywords });
  });
});

describe('focusOn answers each kind of question from what was found', () => {
  it('answers what text appears and what is said by quoting them', () => {
    const focus = focusOn('What text appears, and what is said?', input);
    expect(focus.answer).toBe(
      'The on-screen text reads “Sales grew 20%” (seen from 1 s to 4 s). ' +
        'The speech says “our sales are growing fast” (recognised automatically, may contain errors).',
    );
    expect(focus.keywords).toEqual([]);
  });

  it('says plainly when there is no text and no speech', () => {
    expect(focusOn('What text appears, and what is said?', silent).answer).toBe(
      'No on-screen text was found. No speech was found: the video has no sound.',
    );
    const unheard = { ...input, transcript: null, transcriptUnavailableReason: 'No speech recogniser.' };
    expect(focusOn('What does the narrator say?', unheard).answer).toContain(
      'I could not determine what is said: No speech recogniser.',
    );
  });

  it('counts scenes, walks through them, and names colours and facts', () => {
    expect(focusOn('How many scenes are there?', input).answer).toBe('It has 2 scenes, with cuts at 5 s.');
    expect(focusOn('How many shots?', { ...input, scenes: [input.scenes[0]!] }).answer).toContain(
      'It has 1 scene',
    );
    const events = focusOn('What happens in the video?', input).answer;
    expect(events).toContain('From 0 s to 5 s: bright, mostly white, with the text “Sales grew 20%”');
    expect(events).toContain('From 5 s to 12.5 s: dark, mostly blue');
    expect(events).toContain('I cannot identify objects, people or actions');
    expect(focusOn('What colours are used?', input).answer).toContain('the main colours are');
    expect(focusOn('How long is the video?', input).answer).toContain('A 12.5 s 1280×720 h264 video');
  });

  it('searches the text and speech for a keyword, and says what it cannot see', () => {
    const found = focusOn('Does it mention sales?', input);
    expect(found.matches.map((m) => m.source)).toEqual(['on_screen_text', 'transcript']);
    expect(found.answer).toContain('Mentions of “sales”');
    const dog = focusOn('Is there a dog?', input).answer;
    expect(dog).toContain('Neither the on-screen text nor the speech mentions “dog”');
    expect(dog).toContain('I cannot identify objects');
    expect(focusOn('Is "hello" said?', silent).answer).toContain('the speech could not be checked');
  });

  it('gives an overview and an honest statement for a question it cannot classify', () => {
    const answer = focusOn('Why?', input).answer;
    expect(answer).toContain('I could not tell what the question asks');
    expect(answer).toContain('It has 2 scenes');
    expect(answer).toContain('The speech says');
  });
});

describe('summaryFor', () => {
  it('leads with the answer and leaves out what the answer already told', () => {
    const { summary, focus } = summaryFor(input, 'What text appears, and what is said?');
    expect(summary.startsWith(focus!.answer)).toBe(true);
    expect(summary).toContain('It has 2 scenes');
    expect(summary).not.toContain('On-screen text:');
    expect(summaryFor(input, null).focus).toBeNull();
  });
});
