import { describe, expect, it } from 'vitest';
import type { TemplateVariable } from '../../../../contract/templates.ts';
import { walkSchema } from '../../../schema-form/walk-schema.ts';
import { variablesSchema, variableValuesOf } from './variable-schema.ts';

const variable = (
  v: Partial<TemplateVariable> & Pick<TemplateVariable, 'name' | 'type'>,
): TemplateVariable => ({
  label: v.name,
  required: true,
  default: null,
  description: null,
  choices: null,
  ...v,
});

describe('variablesSchema', () => {
  it("counts a text variable against the server's measured limit, so the counter and the hint agree", () => {
    const spec = walkSchema(variablesSchema([variable({ name: 'title', type: 'text', max_length: 500 })]));
    expect(spec.fields[0]).toMatchObject({ key: 'title', maxLength: 500 });
  });

  it('draws text, media and choice variables as text, URL and choice fields, required ones marked', () => {
    const spec = walkSchema(
      variablesSchema([
        variable({ name: 'title', type: 'text', label: 'Title' }),
        variable({ name: 'photo', type: 'image', label: 'Photo' }),
        variable({
          name: 'mood',
          type: 'choice',
          required: false,
          choices: ['calm', 'upbeat'],
          default: 'calm',
        }),
      ]),
    );
    expect(spec.fields.map((f) => [f.key, f.kind, f.label, f.required])).toEqual([
      ['title', 'text', 'Title', true],
      ['photo', 'url', 'Photo', true],
      ['mood', 'choice', 'mood', false],
    ]);
    expect(spec.fields[2]?.defaultValue).toBe('calm');
  });

  it('sends only the filled-in strings', () => {
    expect(variableValuesOf({ title: 'Hi', subtitle: '', mood: undefined, n: 3 })).toEqual({ title: 'Hi' });
  });
});
