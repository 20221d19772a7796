import { z } from 'zod';
import { describeIssues } from '../../../contract/errors.ts';
import { AppError } from '../../errors.ts';
import type { JsonSchema, ModelDefinition } from './types.ts';

/** Validators built from the catalog's JSON Schemas, once per schema object. */
const validators = new WeakMap<JsonSchema, z.ZodType>();

function validatorOf(schema: JsonSchema): z.ZodType {
  let validator = validators.get(schema);
  if (!validator) {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * Checks what the contract cannot know: `provider_options` against the model's per-provider schemas
 * (GET /v2/tools/{key}?model=) and the model's own limits on common fields. Answers 422 like any
 * other validation failure, naming each field.
 */
export function checkModelInput(model: ModelDefinition, body: Record<string, unknown>): void {
  const issues: z.core.$ZodIssue[] = [];
  const options = body.provider_options as Record<string, unknown> | undefined;
  for (const [provider, value] of Object.entries(options ?? {})) {
    const offer = model.offers.find((o) => o.provider === provider);
    if (!offer) {
      const known = model.offers.map((o) => o.provider).join(', ');
      issues.push({
        code: 'custom',
        path: ['provider_options', provider],
        message: `${model.id} has no ${provider} provider (providers: ${known})`,
        input: value,
      } as z.core.$ZodIssue);
      continue;
    }
    const parsed = validatorOf(offer.optionsSchema).safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        issues.push({ ...issue, path: ['provider_options', provider, ...issue.path] });
      }
    }
  }
  for (const [field, schema] of Object.entries(model.fields ?? {})) {
    // A missing list counts as empty, so a model that needs input files says so.
    const value = body[field] ?? (schema.type === 'array' ? [] : undefined);
    if (value === undefined) continue;
    const parsed = validatorOf(schema).safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) issues.push({ ...issue, path: [field, ...issue.path] });
    }
  }
  if (issues.length === 0) return;
  const { message, fields } = describeIssues(issues);
  throw new AppError('invalid_request', message, { status: 422, details: { fields } });
}
