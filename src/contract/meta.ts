import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

export const getOpenApiJson = defineEndpoint({
  operationId: 'getOpenApiJson',
  method: 'GET',
  path: '/v2/openapi.json',
  host: 'api',
  tag: 'Tools',
  summary: 'This OpenAPI 3.1 document (JSON)',
  description: 'Lists every endpoint this server answers.',
  auth: 'none',
  responses: { 200: { description: 'The document.', schema: z.record(z.string(), z.unknown()) } },
  errors: [],
});

export const getOpenApiYaml = defineEndpoint({
  operationId: 'getOpenApiYaml',
  method: 'GET',
  path: '/v2/openapi.yaml',
  host: 'api',
  tag: 'Tools',
  summary: 'This OpenAPI 3.1 document (YAML)',
  auth: 'none',
  responses: { 200: { description: 'The document.', contentType: 'application/yaml', schema: z.string() } },
  errors: [],
});
