import type { ToolKey } from '../../../contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import type { TemplateVariable } from '../../../contract/templates.ts';
import { fillRequest, standInValues } from './fill-template.ts';

/** Longer than any limit of a request field: a value this long is refused wherever a limit applies. */
const PROBE_LENGTH = 200_000;

/** Limits by template (tool, request and variables as JSON): a template's limits never change. */
const known = new Map<string, Map<string, number>>();
const KNOWN_MAX = 1_000;

/**
 * The longest value of each text variable that the tool takes where the template places it: the request
 * filled with stand-ins, the variable with a value too long for any field, and the tool's own schema
 * says which fields refuse it and their maximum (less the text around the placeholder there). A form
 * then counts against the real limit ("/ 500"), not an arbitrary one, and says it. Null: no limit.
 */
export function textVariableLimits(
  tool: ToolKey,
  request: unknown,
  variables: readonly TemplateVariable[],
): Map<string, number> {
  const key = JSON.stringify([tool, request, variables]);
  const cached = known.get(key);
  if (cached) return cached;
  const limits = measure(tool, request, variables);
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(key, limits);
  return limits;
}

function measure(
  tool: ToolKey,
  request: unknown,
  variables: readonly TemplateVariable[],
): Map<string, number> {
  const limits = new Map<string, number>();
  const standIns = standInValues(variables);
  const probe = 'x'.repeat(PROBE_LENGTH);
  for (const variable of variables) {
    if (variable.type !== 'text') continue;
    const filled = fillRequest(request, { ...standIns, [variable.name]: probe });
    const result = TOOL_REQUEST_BODIES[tool].safeParse(filled);
    for (const issue of result.error?.issues ?? []) {
      if (issue.code !== 'too_big' || issue.origin !== 'string') continue;
      const value = valueAt(filled, issue.path);
      if (typeof value !== 'string' || !value.includes(probe)) continue;
      // The text around the placeholder takes its share of the field's maximum.
      const room = Number(issue.maximum) - (value.length - PROBE_LENGTH);
      limits.set(variable.name, Math.max(0, Math.min(limits.get(variable.name) ?? room, room)));
    }
  }
  return limits;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The template's variables with `max_length` set for text variables the tool limits. */
export function withTextLimits(
  tool: ToolKey,
  request: unknown,
  variables: readonly TemplateVariable[],
): TemplateVariable[] {
  const limits = textVariableLimits(tool, request, variables);
  return variables.map((variable) => ({ ...variable, max_length: limits.get(variable.name) ?? null }));
}
