import type { ToolKey } from '../../../contract/common.ts';
import type { TemplateVariable } from '../../../contract/templates.ts';
import { starterSample } from './starter-samples.ts';

/** A template shipped with the server: approved, authorless, rendered by local engines only. */
export interface StarterTemplate {
  id: string;
  name: string;
  description: string;
  tags: string[];
  tool: ToolKey;
  request: Record<string, unknown>;
  variables: TemplateVariable[];
  preview_url: string;
}

const text = (name: string, label: string, fallback: string | null, description: string | null = null) =>
  ({
    name,
    label,
    type: 'text',
    required: fallback === null,
    default: fallback,
    description,
    choices: null,
  }) satisfies TemplateVariable;

const media = (name: string, label: string, type: 'image' | 'audio' | 'video', description: string) =>
  ({
    name,
    label,
    type,
    required: true,
    default: null,
    description,
    choices: null,
  }) satisfies TemplateVariable;

const choice = (name: string, label: string, choices: string[], description: string) =>
  ({
    name,
    label,
    type: 'choice',
    required: false,
    default: choices[0] ?? null,
    description,
    choices,
  }) satisfies TemplateVariable;

const BACKGROUNDS = ['#0f172a', '#7c2d12', '#14532d', '#1e3a8a', '#581c87'];

export const STARTER_TEMPLATES: StarterTemplate[] = [
  {
    id: 'tpl_starter_title_card',
    name: 'Title card',
    description: 'A title and a subtitle on a plain background: an opening card, a chapter break.',
    tags: ['title', 'video', 'text'],
    tool: 'render',
    request: {
      width: 1280,
      height: 720,
      duration: 3,
      background: '{{background}}',
      format: '{{format}}',
      layers: [
        { type: 'text', text: '{{title}}', y: 280, font_size: 72, color: '#ffffff' },
        { type: 'text', text: '{{subtitle}}', y: 390, font_size: 36, color: '#cbd5e1' },
      ],
    },
    variables: [
      text('title', 'Title', null),
      text('subtitle', 'Subtitle', 'A film by you'),
      choice('background', 'Background colour', BACKGROUNDS, 'Colour behind the text.'),
      choice('format', 'Format', ['png', 'mp4'], 'A still picture or a 3-second video.'),
    ],
    preview_url: starterSample('title-card'),
  },
  {
    id: 'tpl_starter_slideshow',
    name: 'Slideshow with narration and music',
    description:
      'Three pictures, three seconds each, with your text spoken over generated music. Runs as a pipeline: speech, music, then the render.',
    tags: ['slideshow', 'video', 'narration', 'music'],
    tool: 'pipeline',
    request: {
      steps: [
        { id: 'narration', tool: 'speech', input: { text: '{{narration}}' } },
        { id: 'music', tool: 'music', input: { prompt: '{{mood}}', duration: 9 } },
        {
          id: 'slideshow',
          tool: 'render',
          input: {
            width: 1280,
            height: 720,
            duration: 9,
            layers: [
              { type: 'image', url: '{{image_1}}', start: 0, duration: 3, fit: 'contain' },
              { type: 'image', url: '{{image_2}}', start: 3, duration: 3, fit: 'contain' },
              { type: 'image', url: '{{image_3}}', start: 6, duration: 3, fit: 'contain' },
              { type: 'audio', url: '{{steps.music.output.url}}', volume: 0.4 },
              { type: 'audio', url: '{{steps.narration.output.url}}' },
            ],
          },
        },
      ],
    },
    variables: [
      media('image_1', 'First picture', 'image', 'Shown from 0 to 3 s.'),
      media('image_2', 'Second picture', 'image', 'Shown from 3 to 6 s.'),
      media('image_3', 'Third picture', 'image', 'Shown from 6 to 9 s.'),
      text('narration', 'Narration', null, 'Spoken over the pictures (about 25 words fit).'),
      choice('mood', 'Music', ['calm piano', 'upbeat pop', 'cinematic strings'], 'What the music is like.'),
    ],
    preview_url: starterSample('slideshow'),
  },
  {
    id: 'tpl_starter_captioned_clip',
    name: 'Captioned clip',
    description: 'The first six seconds of a clip with a caption along the bottom.',
    tags: ['captions', 'video', 'text'],
    tool: 'render',
    request: {
      width: 1280,
      height: 720,
      duration: 6,
      layers: [
        { type: 'video', url: '{{clip}}', fit: 'contain' },
        { type: 'text', text: '{{caption}}', y: 620, font_size: 40, color: '{{caption_color}}' },
      ],
    },
    variables: [
      media('clip', 'Clip', 'video', 'A video file (its first 6 seconds are used).'),
      text('caption', 'Caption', null),
      choice('caption_color', 'Caption colour', ['#ffffff', '#facc15', '#000000'], 'Colour of the caption.'),
    ],
    preview_url: starterSample('captioned-clip'),
  },
  {
    id: 'tpl_starter_square_post',
    name: 'Square social post',
    description: 'A 1080×1080 picture with a headline, a line of text and your handle: ready to post.',
    tags: ['social', 'image', 'text'],
    tool: 'render',
    request: {
      width: 1080,
      height: 1080,
      duration: 1,
      format: 'png',
      background: '{{background}}',
      layers: [
        { type: 'text', text: '{{headline}}', y: 380, font_size: 80, color: '#ffffff' },
        { type: 'text', text: '{{body}}', y: 540, font_size: 40, color: '#e2e8f0' },
        { type: 'text', text: '{{handle}}', y: 940, font_size: 32, color: '#94a3b8' },
      ],
    },
    variables: [
      text('headline', 'Headline', null),
      text('body', 'Text', 'Something worth sharing.'),
      text('handle', 'Handle', '@you'),
      choice('background', 'Background colour', BACKGROUNDS, 'Colour behind the text.'),
    ],
    preview_url: starterSample('square-post'),
  },
];
