import { z } from 'zod';
import { BUDGET_ALERT_EVENT_TYPE, BudgetAlertEvent, SpendLimitExceededDetails } from './budgets.ts';
import { TAGS } from './common.ts';
import type { EndpointDef } from './endpoint.ts';
import { ERROR_STATUS, type ErrorCode, ErrorEnvelope } from './errors.ts';

type JsonObject = Record<string, unknown>;

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing or invalid API key or session',
  402: 'Balance too low, or a spend limit or budget cap reached',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Validation failed',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Unavailable',
};

/**
 * Converts one zod schema to JSON Schema 2020-12 and moves its named sub-schemas into the shared
 * components, so every resource appears once under `#/components/schemas`.
 */
function convert(schema: z.ZodType, io: 'input' | 'output', components: JsonObject): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonObject;
  const defs = (json.$defs ?? {}) as JsonObject;
  delete json.$defs;
  delete json.$schema;
  const rewritten = JSON.parse(
    JSON.stringify({ root: json, defs }).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as { root: JsonObject; defs: JsonObject };
  for (const [name, def] of Object.entries(rewritten.defs)) components[name] ??= def;
  // A root schema that carries an id becomes a component itself.
  const id = z.globalRegistry.get(schema)?.id;
  if (id && io === 'output') {
    components[id] ??= rewritten.root;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewritten.root;
}

function parametersOf(endpoint: EndpointDef, components: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const add = (where: 'path' | 'query' | 'header', shape: z.ZodObject | undefined) => {
    if (!shape) return;
    const json = convert(shape, 'input', components) as { properties?: JsonObject; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = schema as JsonObject;
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add('path', endpoint.params);
  add('query', endpoint.query);
  add('header', endpoint.headers);
  return out;
}

function errorStatuses(endpoint: EndpointDef): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>(endpoint.errors);
  // An optional token is still checked when sent: a wrong one is 401.
  if (endpoint.auth !== 'none') codes.add('unauthorized');
  // Any endpoint that takes an API key may meet a restricted one (issue #31): expired (401), used from an
  // address outside its list or, read-only, asked to change something (403), past its requests a minute (429).
  if (endpoint.auth === 'any' || endpoint.auth === 'optional') {
    codes.add('api_key_expired').add('forbidden').add('rate_limited');
  }
  // X-Team-Id naming a team the caller is not in is answered as not found (api-extensions: no existence leak).
  if (endpoint.headers && 'x-team-id' in endpoint.headers.shape) codes.add('not_found');
  if (endpoint.body || endpoint.query || endpoint.params) codes.add('invalid_request');
  // Refused before validation by the server's request layer: NUL or a lone surrogate in a path id (404)
  // or in any query value (422, below); a body not declared JSON (415) or past 1 MiB (413).
  if (endpoint.params) codes.add('not_found');
  if (endpoint.body) codes.add('payload_too_large').add('unsupported_media_type');
  codes.add('internal_error');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  // Validation failures of a body, query or path are 422 with code invalid_request (spec section 7); any
  // route can get one, for a query value it cannot store.
  byStatus.set(422, [...new Set([...(byStatus.get(422) ?? []), 'invalid_request' as const])]);
  return byStatus;
}

export interface OpenApiOptions {
  serverUrl: string;
  version?: string;
}

/** Builds the OpenAPI 3.1 document for the given endpoints (the ones a server actually answers), internal ones left out. */
export function buildOpenApi(endpoints: readonly EndpointDef[], options: OpenApiOptions): JsonObject {
  const components: JsonObject = {};
  const paths: Record<string, JsonObject> = {};
  // The envelope carries the id `Error`: converting it registers the component itself (assigning the
  // returned $ref to components.Error would make the component refer to itself).
  convert(ErrorEnvelope, 'output', components);
  for (const endpoint of endpoints) {
    if (endpoint.internal) continue;
    const responses: JsonObject = {};
    for (const [status, response] of Object.entries(endpoint.responses)) {
      if (!response) continue;
      const contentType = response.contentType ?? 'application/json';
      responses[status] = {
        description: response.description,
        ...(response.schema
          ? { content: { [contentType]: { schema: convert(response.schema, 'output', components) } } }
          : {}),
      };
    }
    for (const [status, codes] of errorStatuses(endpoint)) {
      responses[String(status)] = {
        description: `${REASONS[status] ?? 'Error'} (${codes.map((c) => `\`${c}\``).join(', ')})`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const operation: JsonObject = {
      operationId: endpoint.operationId,
      tags: [endpoint.tag],
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      security:
        endpoint.auth === 'none'
          ? []
          : endpoint.auth === 'optional'
            ? [{}, { bearer: [] }]
            : [{ bearer: [] }],
      parameters: parametersOf(endpoint, components),
      responses,
    };
    if (endpoint.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: convert(endpoint.body, 'input', components) } },
      };
    }
    const pathItem = paths[endpoint.path] ?? {};
    pathItem[endpoint.method.toLowerCase()] = operation;
    paths[endpoint.path] = pathItem;
  }
  // Not bodies of an endpoint, but documented: the 402 `spend_limit_exceeded` details, and the event a
  // budget's alert POSTs (OpenAPI 3.1 `webhooks`).
  convert(SpendLimitExceededDetails, 'output', components);
  const webhooks = {
    [BUDGET_ALERT_EVENT_TYPE]: {
      post: {
        summary: 'A budget reached one of its alert thresholds',
        description:
          "Sent once per threshold per period to the budget's `alert_webhook_url`, signed like job webhooks (Standard Webhooks headers, the team's secret). Tried once; answer 2xx.",
        requestBody: {
          required: true,
          content: { 'application/json': { schema: convert(BudgetAlertEvent, 'output', components) } },
        },
        responses: { '200': { description: 'Received.' } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Media Generation API',
      version: options.version ?? '2.0.0',
      description:
        'Asynchronous media generation: one API key, many models, billed in credits (1 credit = 1 cent). Reference server of Media Console.',
    },
    servers: [{ url: options.serverUrl }],
    tags: TAGS.map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key, or a session JWT from verify-otp. Some account endpoints take only a session.',
        },
      },
    },
  };
}
