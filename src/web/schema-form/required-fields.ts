import type { BodyProblem } from './form-validation.ts';
import type { JsonSchema } from './json-schema.ts';

/**
 * The required top-level fields a body leaves out, as problems ("Required."): the one check the form
 * can make before the schema's full checks have loaded (lazy-validation.ts), so an empty form is never
 * priced as if it could run.
 */
export function missingRequired(schema: JsonSchema, body: Record<string, unknown>): BodyProblem[] {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return required
    .filter((field) => body[field] === undefined || body[field] === null || body[field] === '')
    .map((field) => ({ path: [field], message: 'Required.' }));
}
