import { describe, expect, it } from 'vitest';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import { PublishTemplateRequest, TemplateVariable } from '../../../contract/templates.ts';
import { fillRequest, standInValues } from './fill-template.ts';
import { STARTER_TEMPLATES } from './starter-templates.ts';

describe('the starter templates', () => {
  it.each(STARTER_TEMPLATES.map((s) => [s.id, s] as const))(
    '%s would pass the checks a published one does',
    (_, starter) => {
      for (const variable of starter.variables) TemplateVariable.strict().parse(variable);
      const { preview_url: _sample, ...published } = starter;
      expect(PublishTemplateRequest.safeParse(published).error).toBeUndefined();
      const sample = fillRequest(starter.request, standInValues(starter.variables));
      expect(TOOL_REQUEST_BODIES[starter.tool].safeParse(sample).error).toBeUndefined();
      expect(starter.preview_url).toMatch(/^data:image\/svg\+xml;base64,/);
    },
  );

  it('have ids of their own', () => {
    expect(new Set(STARTER_TEMPLATES.map((s) => s.id)).size).toBe(STARTER_TEMPLATES.length);
    for (const starter of STARTER_TEMPLATES) expect(starter.id).toMatch(/^tpl_starter_/);
  });
});

describe('fillRequest', () => {
  it('fills declared placeholders anywhere and leaves pipeline references alone', () => {
    expect(
      fillRequest(
        { a: 'Hi {{ name }}!', b: [{ c: '{{steps.x.output.url}}' }], n: 3, unknown: '{{other}}' },
        { name: 'Ada' },
      ),
    ).toEqual({ a: 'Hi Ada!', b: [{ c: '{{steps.x.output.url}}' }], n: 3, unknown: '{{other}}' });
  });

  it('inserts a value as text, never as more request structure', () => {
    expect(fillRequest({ text: '{{t}}' }, { t: '", "duration": 9999, "x": "' })).toEqual({
      text: '", "duration": 9999, "x": "',
    });
  });
});
