import type { UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../client/api-error.ts';
import { asSentence } from '../format/sentence.ts';
import type { FormValues } from './form-values.ts';

export interface FieldProblem {
  field: string;
  message: string;
}

/** The fields a 422 names (`details.fields`), or null when it names none. */
export function fieldProblems(error: unknown): FieldProblem[] | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const fields = (error.details as { fields?: Array<{ field?: unknown; message?: unknown }> } | null)?.fields;
  const problems = (fields ?? []).filter(
    (issue): issue is FieldProblem => typeof issue.field === 'string' && typeof issue.message === 'string',
  );
  return problems.length > 0 ? problems : null;
}

/**
 * Puts each message of a 422 at the field it names, in place, and moves focus to the first such field, as
 * the form's own checks do: a keyboard user lands on what to fix, not on the page's body. `fieldName`
 * maps the request's path (`prompt`, `variables.title`) to the form's field, or null for one the form
 * does not show (the banner still names it).
 */
export function showServerFieldErrors(
  setError: UseFormSetError<FormValues>,
  error: unknown,
  fieldName: (field: string) => string | null,
): void {
  let first = true;
  for (const problem of fieldProblems(error) ?? []) {
    const name = fieldName(problem.field);
    if (name === null) continue;
    setError(name, { type: 'server', message: asSentence(problem.message) }, { shouldFocus: first });
    first = false;
  }
}
