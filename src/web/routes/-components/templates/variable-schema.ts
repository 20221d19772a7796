import type { TemplateVariable } from '../../../../contract/templates.ts';
import type { JsonSchema } from '../../../schema-form/json-schema.ts';

/** A text variable's limit when the server names none (the tool sets no limit where it is placed). */
const TEXT_MAX = 10_000;

function propertyOf(variable: TemplateVariable): JsonSchema {
  const common: JsonSchema = {
    title: variable.label,
    ...(variable.description ? { description: variable.description } : {}),
    ...(variable.default !== null ? { default: variable.default } : {}),
  };
  switch (variable.type) {
    case 'choice':
      return { ...common, type: 'string', enum: variable.choices ?? [] };
    case 'image':
    case 'audio':
    case 'video':
      // A URL field: the form draws it with upload and "pick an earlier output".
      return { ...common, type: 'string', format: 'uri', maxLength: 2048 };
    default:
      // The server measures each text variable's room where the template places it (`max_length`).
      return {
        ...common,
        type: 'string',
        minLength: variable.required ? 1 : 0,
        maxLength: variable.max_length ?? TEXT_MAX,
      };
  }
}

/**
 * A template's variables as the JSON Schema of an object, so the schema form draws them (text fields,
 * media URL pickers, choices) and checks them before sending, like a tool's input in the playground.
 */
export function variablesSchema(variables: readonly TemplateVariable[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(variables.map((v) => [v.name, propertyOf(v)])),
    required: variables.filter((v) => v.required).map((v) => v.name),
    additionalProperties: false,
  };
}

/** The values to send: strings only, blanks left out (the server fills defaults). */
export function variableValuesOf(body: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(body).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
}
