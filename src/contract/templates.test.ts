import { describe, expect, it } from 'vitest';
import {
  PublishTemplateRequest,
  RenderTemplateRequest,
  renderTemplate,
  Template,
  TemplateListQuery,
  TemplateUseResponse,
  templatePlaceholders,
  useTemplate,
} from './templates.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const publish = {
  name: 'Product shot',
  tool: 'image',
  request: { prompt: 'A studio photo of {{product}} on {{ background }}' },
  variables: [
    { name: 'product', label: 'Product', type: 'text' },
    { name: 'background', label: 'Background', type: 'text', required: false, default: 'white' },
  ],
  tags: ['product', 'Studio'],
};

describe('POST /templates/{id}/use (spec 4.8)', () => {
  it('answers { success, useCount } in camelCase', () => {
    expect(issuesOf(TemplateUseResponse, { success: true, useCount: 3 })).toEqual([]);
    expect(issuesOf(TemplateUseResponse, { success: true, use_count: 3 })).toEqual([
      'useCount: invalid_type',
    ]);
    expect(useTemplate.errors).toEqual(['invalid_request', 'not_found']);
    expect('body' in useTemplate).toBe(false);
  });
});

describe('publishing (ours)', () => {
  it('fills the defaults and lower-cases tags', () => {
    const body = parseOk(PublishTemplateRequest, publish);
    expect(body.tags).toEqual(['product', 'studio']);
    expect(body.description).toBe('');
    expect(body.variables[0]).toMatchObject({ required: true, default: null, description: null });
  });

  it('needs every placeholder declared, once', () => {
    expect(issuesOf(PublishTemplateRequest, { ...publish, variables: publish.variables.slice(1) })).toEqual([
      'request: custom',
    ]);
    expect(
      issuesOf(PublishTemplateRequest, {
        ...publish,
        variables: [...publish.variables, publish.variables[0]],
      }),
    ).toEqual(['variables.2.name: custom']);
  });

  it('takes a name of 1 to 100 characters and up to 10 tags', () => {
    expect(issuesOf(PublishTemplateRequest, { ...publish, name: '' })).toEqual(['name: too_small']);
    expect(issuesOf(PublishTemplateRequest, { ...publish, name: 'n'.repeat(100) })).toEqual([]);
    expect(issuesOf(PublishTemplateRequest, { ...publish, name: 'n'.repeat(101) })).toEqual([
      'name: too_big',
    ]);
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(issuesOf(PublishTemplateRequest, { ...publish, tags: tags(10) })).toEqual([]);
    expect(issuesOf(PublishTemplateRequest, { ...publish, tags: tags(11) })).toEqual(['tags: too_big']);
  });

  it('gives a choice variable its choices, the default among them, and no other type any', () => {
    const variable = { name: 'colour', label: 'Colour', type: 'choice', choices: ['red', 'blue'] };
    const withVariable = (v: object) => ({ ...publish, variables: [...publish.variables, v] });
    expect(issuesOf(PublishTemplateRequest, withVariable({ ...variable, default: 'red' }))).toEqual([]);
    expect(issuesOf(PublishTemplateRequest, withVariable({ ...variable, default: 'green' }))).toEqual([
      'variables.2.default: custom',
    ]);
    expect(issuesOf(PublishTemplateRequest, withVariable({ ...variable, choices: undefined }))).toEqual([
      'variables.2.choices: custom',
    ]);
    expect(issuesOf(PublishTemplateRequest, withVariable({ ...variable, type: 'text' }))).toEqual([
      'variables.2.choices: custom',
    ]);
  });

  it('finds placeholders anywhere in the request', () => {
    expect(templatePlaceholders({ a: '{{x}} and {{ y }}', b: [{ c: '{{x}}' }], d: 3 })).toEqual([
      'x',
      'y',
      'x',
    ]);
  });
});

describe('template record and listing', () => {
  it('parses a template', () => {
    const template = {
      id: 'tpl_1',
      name: 'Product shot',
      description: '',
      tags: ['product'],
      tool: 'image',
      request: publish.request,
      variables: [
        {
          name: 'product',
          label: 'Product',
          type: 'text',
          required: true,
          default: null,
          description: null,
          choices: null,
        },
      ],
      preview_url: null,
      status: 'pending',
      author: { user_id: '0b9a7f8e-1111-4222-8333-944455556666', display_name: 'Ada' },
      team_id: '0b9a7f8e-1111-4222-8333-944455556667',
      use_count: 0,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      approved_at: null,
    };
    expect(issuesOf(Template, template)).toEqual([]);
    expect(issuesOf(Template, { ...template, status: 'draft' })).toEqual(['status: invalid_value']);
  });

  it('filters by tag', () => {
    expect(parseOk(TemplateListQuery, { tag: 'product,studio' })).toMatchObject({
      tag: ['product', 'studio'],
      sort: 'newest',
    });
    expect(issuesOf(TemplateListQuery, { tag: 'no spaces' })).toEqual(['tag.0: invalid_format']);
  });

  it('renders with variable values into a job', () => {
    expect(parseOk(RenderTemplateRequest, {}).variables).toEqual({});
    expect(issuesOf(RenderTemplateRequest, { variables: { product: 'mug', size: 'large' } })).toEqual([]);
    // Every value is a string (text, a media URL or a choice).
    expect(issuesOf(RenderTemplateRequest, { variables: { n: 2 } })).toEqual(['variables.n: invalid_type']);
    expect(issuesOf(RenderTemplateRequest, { variables: { product: { nested: 1 } } })).not.toEqual([]);
    expect(Object.keys(renderTemplate.responses).sort()).toEqual(['200', '202']);
  });
});
