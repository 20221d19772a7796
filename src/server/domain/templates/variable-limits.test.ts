import { describe, expect, it } from 'vitest';
import { IMAGE_PROMPT_MAX } from '../../../contract/generation.ts';
import type { TemplateVariable } from '../../../contract/templates.ts';
import { STARTER_TEMPLATES } from './starter-templates.ts';
import { textVariableLimits, withTextLimits } from './variable-limits.ts';

const text = (name: string): TemplateVariable => ({
  name,
  label: name,
  type: 'text',
  required: true,
  default: null,
  description: null,
  choices: null,
});

describe("a text variable's limit", () => {
  it('is the limit of the field it fills: a title card’s title takes what a render text layer takes (500)', () => {
    const titleCard = STARTER_TEMPLATES.find((t) => t.id === 'tpl_starter_title_card')!;
    const variables = withTextLimits(titleCard.tool, titleCard.request, titleCard.variables);
    expect(variables.find((v) => v.name === 'title')?.max_length).toBe(500);
    // Choices have no length of their own to measure.
    expect(variables.find((v) => v.name === 'background')?.max_length).toBeNull();
    // No starter template says a limit in words that the form would contradict.
    for (const template of STARTER_TEMPLATES) {
      for (const variable of template.variables) expect(variable.description ?? '').not.toMatch(/Up to \d+/);
    }
  });

  it('leaves room for the text around the placeholder, and takes the tightest of its places', () => {
    const request = { model: 'local-sketch', prompt: 'A {{subject}} in watercolour' };
    const limits = textVariableLimits('image', request, [text('subject')]);
    expect(limits.get('subject')).toBe(IMAGE_PROMPT_MAX - 'A  in watercolour'.length);
  });

  it('is none where the tool sets no limit', () => {
    const limits = textVariableLimits('image', { model: 'local-sketch', prompt: 'a boat', seed: 1 }, [
      text('x'),
    ]);
    expect(limits.has('x')).toBe(false);
  });
});
