import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from 'zod';
import type { JsonSchema } from './json-schema.ts';

/** One problem with the body, at a path of the form's field names. */
export interface BodyProblem {
  path: (string | number)[];
  message: string;
}

const compiled = new WeakMap<JsonSchema, z.ZodType>();

/**
 * The zod validator of a JSON Schema (`z.fromJSONSchema`), once per schema object. A registry of its
 * own keeps the schema's annotations out of zod's global registry (which the contract fills).
 */
export function zodFromSchema(schema: JsonSchema): z.ZodType {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0], {
      registry: z.registry(),
    });
    compiled.set(schema, validator);
  }
  return validator;
}

/** Checks a request body; each problem is named in words people read, at the field it concerns. */
export function validateBody(validator: z.ZodType, body: unknown): BodyProblem[] {
  // The input lets a message tell "missing" from "wrong type"; zod leaves it out unless asked.
  const result = validator.safeParse(body, { reportInput: true });
  if (result.success) return [];
  const seen = new Set<string>();
  // One problem per field: the first one (a duration of 0 breaks both of its lower bounds).
  return result.error.issues
    .flatMap((issue) => problemsOf(issue, []))
    .filter((problem) => {
      const key = problem.path.join('.');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

type Issue = z.core.$ZodIssue;

function problemsOf(issue: Issue, prefix: PropertyKey[]): BodyProblem[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') {
    const branches = issue.errors;
    // A choice of single values (`anyOf` of consts, numeric enums): name them.
    const values = branches.map((b) =>
      b.length === 1 && b[0]?.code === 'invalid_value' ? b[0].values : null,
    );
    if (values.every((v) => v !== null && v.length === 1)) {
      return [
        { path: cleanPath(path), message: `Choose one of ${listValues(values.flatMap((v) => v ?? []))}.` },
      ];
    }
    // Tagged variants: the branch whose tag matched holds the real problems.
    const matching = branches.filter((b) => !b.some(isTagMismatch));
    if (matching.length === 1 && matching[0]) return matching[0].flatMap((inner) => problemsOf(inner, path));
    return [{ path: cleanPath(path), message: 'Does not match any of the allowed forms.' }];
  }
  return [{ path: cleanPath(path), message: messageOf(issue) }];
}

/** A branch failing on its fixed tag (`op: "resize"`) is the wrong variant, not a wrong value. */
function isTagMismatch(issue: Issue): boolean {
  return issue.code === 'invalid_value' && issue.path.length === 1 && issue.values.length === 1;
}

function cleanPath(path: PropertyKey[]): (string | number)[] {
  return path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

function messageOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required.';
      if (issue.expected === 'object' && typeof issue.input === 'string') return 'Enter a JSON object.';
      if (issue.expected === 'int' && typeof issue.input === 'number') return 'Enter a whole number.';
      if (issue.expected === 'number' || issue.expected === 'int') return 'Enter a number.';
      return `Expected ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}.`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? 'Required.' : `At least ${number.format(min)} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') {
        return min === 1 ? 'Add at least one.' : `Add at least ${number.format(min)}.`;
      }
      return issue.inclusive ? `At least ${number.format(min)}.` : `More than ${number.format(min)}.`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `At most ${number.format(max)} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') {
        return max === 0 ? 'This model takes none.' : `At most ${number.format(max)}.`;
      }
      return issue.inclusive ? `At most ${number.format(max)}.` : `Less than ${number.format(max)}.`;
    }
    case 'invalid_format':
      if (issue.format === 'url') return 'Enter a full URL (https://…).';
      if (issue.format === 'regex') return formatHint(issue.pattern);
      return `Not a valid ${issue.format}.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Must be ${listValues(issue.values)}.`
        : `Choose one of ${listValues(issue.values)}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${String(issue.divisor)}.`;
    case 'unrecognized_keys':
      return `Not accepted here: ${issue.keys.join(', ')}.`;
    default:
      return issue.message;
  }
}

const KNOWN_PATTERNS: Record<string, string> = {
  '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$': 'Use the form w:h, for example 16:9.',
  '^#[0-9a-fA-F]{6}$': 'Use a colour such as #ff8800.',
  '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$': 'Use a language code such as en or pt-BR.',
};

function formatHint(pattern: string | undefined): string {
  // zod reports the pattern as a regex literal (`/^…$/`).
  const source = pattern?.replace(/^\/(.*)\/[a-z]*$/s, '$1');
  return (
    (source && KNOWN_PATTERNS[source]) ?? `Does not have the expected form${source ? ` (${source})` : ''}.`
  );
}

/**
 * Problems as react-hook-form errors. A problem with a list or group that also has problems inside
 * is kept under `root` (react-hook-form's place for a field array's own error).
 */
export function toFieldErrors(problems: readonly BodyProblem[]): FieldErrors {
  const errors: Record<string, unknown> = {};
  const keyOf = (path: readonly (string | number)[]) => path.join('.');
  const parents = new Set<string>();
  for (const problem of problems) {
    for (let i = 1; i < problem.path.length; i++) parents.add(keyOf(problem.path.slice(0, i)));
  }
  for (const problem of problems) {
    const path = problem.path.length === 0 ? ['root'] : [...problem.path];
    if (problem.path.length > 0 && parents.has(keyOf(problem.path))) path.push('root');
    setError(errors, path, { type: 'schema', message: problem.message });
  }
  return errors as FieldErrors;
}

function setError(target: Record<string, unknown>, path: readonly (string | number)[], error: object): void {
  let node = target;
  path.forEach((segment, index) => {
    const key = String(segment);
    if (index === path.length - 1) {
      // The first problem at a place wins: it is the one the person meets first.
      if (!(key in node)) node[key] = error;
      return;
    }
    const next = node[key];
    if (typeof next !== 'object' || next === null || 'type' in next) {
      const child: Record<string, unknown> = {};
      node[key] = child;
      node = child;
    } else {
      node = next as Record<string, unknown>;
    }
  });
}

/**
 * A react-hook-form resolver: form values → request body (`toRequest`) → the schema's zod validator.
 * On success it hands the request body on, so the submit handler sends exactly what was checked.
 */
export function schemaResolver<Body>(
  validator: z.ZodType,
  toRequest: (values: Record<string, unknown>) => Body,
): Resolver<Record<string, unknown>, unknown, Body> {
  return (values) => {
    const body = toRequest(values);
    const problems = validateBody(validator, body);
    if (problems.length === 0) return { values: body, errors: {} };
    return { values: {}, errors: toFieldErrors(problems) };
  };
}
