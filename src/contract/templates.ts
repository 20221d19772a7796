import { z } from 'zod';
import { commaList, PageQuery, pageOf, Timestamp, ToolKey, Uuid } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { GenerationHeaders, JobOptions } from './generation.ts';
import { JOB_CREATION_ERRORS, Job } from './jobs.ts';
import { ID_MAX, TEMPLATE_ID } from './values.ts';

export const TEMPLATE_NAME_MAX = 100;
export const TEMPLATE_DESCRIPTION_MAX = 2000;
export const TEMPLATE_TAGS_MAX = 10;
export const TEMPLATE_VARIABLES_MAX = 20;

/** Template ids (ours): `tpl_` followed by opaque characters. */
export const TemplateId = z
  .string()
  .max(ID_MAX)
  .regex(TEMPLATE_ID, { message: 'must be a template id (tpl_...)' });

/**
 * Approval states (ours; spec 3.3 only says templates have an approved state). A published template is
 * `pending`; an operator approves or rejects it (`npm run templates`, or a person listed in ADMIN_EMAILS
 * through `POST /templates/{id}/review`). Only `approved` ones are listed to everyone and give tags; the
 * publishing team sees its own in every state.
 */
export const TEMPLATE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const TemplateStatus = z.enum(TEMPLATE_STATUSES).meta({ id: 'TemplateStatus' });
export type TemplateStatus = z.infer<typeof TemplateStatus>;

export const TemplateTag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, { message: 'must be a lower-case tag (a-z, 0-9, -), max 32' });

const VariableName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, { message: 'must be a lower-case name, max 32' });
const VariableValue = z.string().max(10_000);

/**
 * What a variable holds: `text` (up to 10000 characters), `image`/`audio`/`video` (an http(s) URL of such a
 * file, usually one of ours under /media), `choice` (one of `choices`).
 */
export const TEMPLATE_VARIABLE_TYPES = ['text', 'image', 'audio', 'video', 'choice'] as const;
const VARIABLE_TYPES = TEMPLATE_VARIABLE_TYPES;
export const TEMPLATE_CHOICES_MAX = 50;
const Choices = z.array(z.string().min(1).max(200)).max(TEMPLATE_CHOICES_MAX);

/** A variable of a template, as the service answers it. */
export const TemplateVariable = z
  .object({
    name: VariableName.meta({ description: 'Used as `{{name}}` in the request.' }),
    label: z.string(),
    type: z.enum(VARIABLE_TYPES),
    required: z.boolean(),
    default: VariableValue.nullable(),
    description: z.string().nullable(),
    choices: Choices.nullable().meta({ description: 'The allowed values of a `choice` variable.' }),
    max_length: z.int().min(0).nullable().optional().meta({
      description:
        'For a `text` variable: the longest value the tool takes where the template places it (null: no limit).',
    }),
  })
  .meta({ id: 'TemplateVariable' });
export type TemplateVariable = z.infer<typeof TemplateVariable>;

/** A variable as a publisher declares it (defaults filled in). Separate from the answer's form on purpose. */
export const TemplateVariableInput = z
  .object({
    name: VariableName.meta({ description: 'Used as `{{name}}` in the request.' }),
    label: z.string().trim().min(1).max(100),
    type: z.enum(VARIABLE_TYPES),
    required: z.boolean().default(true),
    default: VariableValue.nullable().default(null),
    description: z.string().max(500).nullable().default(null),
    choices: Choices.min(1).nullable().default(null),
  })
  .superRefine((variable, ctx) => {
    if ((variable.type === 'choice') !== (variable.choices !== null)) {
      ctx.addIssue({
        code: 'custom',
        message: 'a choice variable needs choices, and only a choice variable has them',
        path: ['choices'],
      });
    }
    if (
      variable.type === 'choice' &&
      variable.default !== null &&
      !variable.choices?.includes(variable.default)
    ) {
      ctx.addIssue({ code: 'custom', message: 'the default must be one of the choices', path: ['default'] });
    }
  })
  .meta({ id: 'TemplateVariableInput' });

/** `{{name}}` placeholders in the string values of a template request. */
export const TEMPLATE_PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;

/** Every placeholder name used in a request, in order of appearance (with repeats). */
export function templatePlaceholders(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    for (const match of value.matchAll(TEMPLATE_PLACEHOLDER)) found.push(match[1] ?? '');
  } else if (Array.isArray(value)) {
    for (const item of value) templatePlaceholders(item, found);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) templatePlaceholders(item, found);
  }
  return found;
}

/**
 * A template (ours; spec 2.12 does not show it): a request body of one tool with `{{variables}}`.
 * Rendering fills the variables and calls the tool; the result is an ordinary job.
 */
export const Template = z
  .object({
    id: TemplateId,
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    tool: ToolKey,
    request: z
      .record(z.string(), z.unknown())
      .meta({ description: 'Body of `tool`, with `{{variable}}` placeholders.' }),
    variables: z.array(TemplateVariable),
    preview_url: z.string().nullable().meta({ description: 'A sample picture of what it renders.' }),
    status: TemplateStatus,
    author: z
      .object({ user_id: Uuid, display_name: z.string() })
      .nullable()
      .meta({ description: 'Null for templates shipped with the service.' }),
    team_id: Uuid.nullable().meta({ description: 'The team that published it; null for shipped ones.' }),
    use_count: z.int().min(0),
    created_at: Timestamp,
    updated_at: Timestamp,
    approved_at: Timestamp.nullable(),
  })
  .meta({ id: 'Template' });
export type Template = z.infer<typeof Template>;

/** Body of `POST /templates` (publish). Every placeholder in `request` must be declared in `variables`. */
export const PublishTemplateRequest = z
  .object({
    name: z.string().trim().min(1).max(TEMPLATE_NAME_MAX),
    description: z.string().trim().max(TEMPLATE_DESCRIPTION_MAX).default(''),
    tags: z.array(TemplateTag).max(TEMPLATE_TAGS_MAX).default([]),
    tool: ToolKey,
    request: z.record(z.string(), z.unknown()),
    variables: z.array(TemplateVariableInput).max(TEMPLATE_VARIABLES_MAX).default([]),
    preview_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
  })
  .superRefine((body, ctx) => {
    const declared = new Set<string>();
    body.variables.forEach((variable, index) => {
      if (declared.has(variable.name)) {
        ctx.addIssue({
          code: 'custom',
          message: `duplicate variable ${variable.name}`,
          path: ['variables', index, 'name'],
        });
      }
      declared.add(variable.name);
    });
    for (const name of new Set(templatePlaceholders(body.request))) {
      if (!declared.has(name)) {
        ctx.addIssue({
          code: 'custom',
          message: `{{${name}}} is not a declared variable`,
          path: ['request'],
        });
      }
    }
  })
  .meta({ id: 'PublishTemplateRequest' });

/** Body of `POST /templates/{id}/render`: the variable values, and the usual job options. */
export const RenderTemplateRequest = z
  .object({
    variables: z
      .record(VariableName, VariableValue)
      .default({})
      .meta({ description: 'Values by variable name; missing optional variables take their default.' }),
    options: JobOptions.optional(),
  })
  .meta({ id: 'RenderTemplateRequest' });

/** `{ success, useCount }` exactly as the spec writes it (4.8): note the camelCase `useCount`. */
export const TemplateUseResponse = z
  .object({ success: z.boolean(), useCount: z.int().min(0) })
  .meta({ id: 'TemplateUseResponse' });

export const TemplateParams = z.object({ id: TemplateId });
/** Spec 4.8 answers a malformed id on `use` with 400 (not the 422 of other paths): the handler checks it. */
const UseTemplateParams = z.object({ id: z.string() });

/** Body of `POST /templates/{id}/review`. */
export const ReviewTemplateRequest = z
  .object({ decision: z.enum(['approve', 'reject']) })
  .meta({ id: 'ReviewTemplateRequest' });

export const TemplateListQuery = PageQuery.extend({
  tag: commaList(TemplateTag).optional().meta({ description: 'Templates with any of these tags.' }),
  tool: commaList(ToolKey).optional(),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Text matched against name and description.' }),
  author: z
    .literal('me')
    .optional()
    .meta({ description: "`me`: the caller's own templates, in every state." }),
  sort: z
    .enum(['newest', 'popular'])
    .default('newest')
    .meta({ description: '`popular` sorts by use count.' }),
});

export const useTemplate = defineEndpoint({
  operationId: 'useTemplate',
  method: 'POST',
  path: '/v2/templates/{id}/use',
  host: 'api',
  tag: 'Templates',
  summary: 'Count a use of a template',
  description:
    "No body. Increments the template's use counter without checking that the template is approved. Rendering already counts as a use. A malformed request answers 400 `invalid_request`.",
  auth: 'any',
  params: UseTemplateParams,
  responses: { 200: { description: 'The new count.', schema: TemplateUseResponse } },
  errors: ['invalid_request', 'not_found'],
});

export const listTemplateTags = defineEndpoint({
  operationId: 'listTemplateTags',
  method: 'GET',
  path: '/v2/templates/tags',
  host: 'api',
  tag: 'Templates',
  summary: 'Tag vocabulary',
  description: 'The tags used by approved templates, sorted.',
  auth: 'any',
  responses: {
    200: {
      description: 'The tags.',
      schema: z.object({ data: z.array(z.string()) }).meta({ id: 'TemplateTags' }),
    },
  },
  errors: [],
});

export const listTemplates = defineEndpoint({
  operationId: 'listTemplates',
  method: 'GET',
  path: '/v2/templates',
  host: 'api',
  tag: 'Templates',
  summary: 'Browse templates',
  description:
    "Approved templates (or, with `author=me`, the caller's team's own in every state, pending ones included).",
  auth: 'any',
  query: TemplateListQuery,
  responses: {
    200: { description: 'A page of templates.', schema: pageOf(Template).meta({ id: 'TemplatePage' }) },
  },
  errors: [],
});

export const getTemplate = defineEndpoint({
  operationId: 'getTemplate',
  method: 'GET',
  path: '/v2/templates/{id}',
  host: 'api',
  tag: 'Templates',
  summary: 'Get a template',
  description: "Approved templates, and the caller's own in every state; others answer 404.",
  auth: 'any',
  params: TemplateParams,
  responses: { 200: { description: 'The template.', schema: Template } },
  errors: ['not_found'],
});

export const publishTemplate = defineEndpoint({
  operationId: 'publishTemplate',
  method: 'POST',
  path: '/v2/templates',
  host: 'api',
  tag: 'Templates',
  summary: 'Publish a template',
  description: 'The template starts `pending`; it is listed once an operator approves it.',
  auth: 'any',
  body: PublishTemplateRequest,
  responses: { 201: { description: 'The template, pending approval.', schema: Template } },
  errors: ['rate_limited'],
});

export const renderTemplate = defineEndpoint({
  operationId: 'renderTemplate',
  method: 'POST',
  path: '/v2/templates/{id}/render',
  host: 'api',
  tag: 'Templates',
  summary: 'Render a template',
  description:
    "Fills the variables into the template's request and calls its tool: the answer is a job, exactly as from that tool's route. Counts as a use.",
  auth: 'any',
  params: TemplateParams,
  headers: GenerationHeaders,
  body: RenderTemplateRequest,
  responses: {
    202: { description: 'Job created (status `queued`).', schema: Job },
    200: { description: 'Idempotent replay: the existing job for this Idempotency-Key.', schema: Job },
  },
  errors: ['not_found', ...JOB_CREATION_ERRORS],
});

export const reviewTemplate = defineEndpoint({
  operationId: 'reviewTemplate',
  method: 'POST',
  path: '/v2/templates/{id}/review',
  host: 'api',
  tag: 'Templates',
  summary: 'Approve or reject a template',
  description:
    'For the operators named in the server setting ADMIN_EMAILS (a session or key of such a person); anyone else gets 404, as if the route did not exist. The same as `npm run templates -- approve|reject <id>`.',
  auth: 'any',
  params: TemplateParams,
  body: ReviewTemplateRequest,
  responses: { 200: { description: 'The template in its new state.', schema: Template } },
  errors: ['not_found'],
});
