import { TEMPLATE_PLACEHOLDER, type TemplateVariable } from '../../../contract/templates.ts';
import { AppError } from '../../errors.ts';

interface FieldIssue {
  field: string;
  message: string;
  code: string;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The value of each declared variable (given, else its default), checked against its type. Unknown names
 * and missing required values answer 422 with the fields, like any body validation.
 */
export function variableValues(
  variables: TemplateVariable[],
  given: Record<string, string>,
): Record<string, string> {
  const issues: FieldIssue[] = [];
  const declared = new Map(variables.map((v) => [v.name, v]));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) {
      issues.push({
        field: `variables.${name}`,
        message: 'is not a variable of this template',
        code: 'custom',
      });
    }
  }
  const values: Record<string, string> = {};
  for (const variable of variables) {
    const value = given[variable.name] ?? variable.default;
    const field = `variables.${variable.name}`;
    if (value === null || value === undefined || value.trim() === '') {
      if (variable.required) issues.push({ field, message: 'is required', code: 'invalid_type' });
      values[variable.name] = '';
      continue;
    }
    if (['image', 'audio', 'video'].includes(variable.type) && !isHttpUrl(value)) {
      issues.push({
        field,
        message: `must be the http(s) URL of ${variable.type === 'image' ? 'an' : 'a'} ${variable.type} file`,
        code: 'invalid_format',
      });
    }
    if (variable.type === 'choice' && !variable.choices?.includes(value)) {
      issues.push({
        field,
        message: `must be one of ${variable.choices?.join(', ')}`,
        code: 'invalid_value',
      });
    }
    values[variable.name] = value;
  }
  if (issues.length > 0) {
    throw new AppError(
      'invalid_request',
      `Variables: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}.`,
      { status: 422, details: { fields: issues } },
    );
  }
  return values;
}

const STAND_IN_URL = {
  image: 'https://stand-in.invalid/picture.png',
  audio: 'https://stand-in.invalid/sound.mp3',
  video: 'https://stand-in.invalid/clip.mp4',
} as const;

/**
 * A value for each variable as a publisher's request is checked with: its default, else a plausible one of
 * its type (some text, a media URL, the first choice). A request the tool refuses with these can never render.
 */
export function standInValues(
  variables: ReadonlyArray<Pick<TemplateVariable, 'name' | 'type' | 'default' | 'choices'>>,
): Record<string, string> {
  return Object.fromEntries(
    variables.map((v) => {
      if (v.default !== null) return [v.name, v.default];
      if (v.type === 'choice') return [v.name, v.choices?.[0] ?? ''];
      if (v.type === 'text') return [v.name, 'Sample text'];
      return [v.name, STAND_IN_URL[v.type]];
    }),
  );
}

/** The template's request with every `{{name}}` replaced by its value (other `{{...}}` are left alone). */
export function fillRequest(request: unknown, values: Record<string, string>): unknown {
  if (typeof request === 'string') {
    return request.replace(TEMPLATE_PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
  }
  if (Array.isArray(request)) return request.map((item) => fillRequest(item, values));
  if (request && typeof request === 'object') {
    return Object.fromEntries(Object.entries(request).map(([k, v]) => [k, fillRequest(v, values)]));
  }
  return request;
}
