import type { FieldSpec, ObjectSpec } from './field-spec.ts';
import { humanize } from './json-schema.ts';

function childOf(spec: FieldSpec, key: string): FieldSpec | undefined {
  if (spec.kind === 'object') return spec.fields.find((field) => field.key === key);
  if (spec.kind === 'array' && /^\d+$/.test(key)) return spec.item;
  return undefined;
}

/**
 * The label people see for a field at a dotted path of the request (`prompt`, `provider_options.fal.seed`),
 * as the form draws it (the schema's title): the server names fields by their keys, the page by labels.
 * Nested fields read as "Group › Field"; keys the form does not draw are worded from the key.
 */
export function fieldLabel(spec: ObjectSpec, path: string): string {
  const labels: string[] = [];
  let node: FieldSpec | undefined = spec;
  for (const key of path.split('.').filter(Boolean)) {
    node = node ? childOf(node, key) : undefined;
    if (/^\d+$/.test(key)) {
      labels.push(`item ${Number(key) + 1}`);
      continue;
    }
    labels.push(node?.label || humanize(key));
  }
  return labels.join(' › ') || 'The request';
}
