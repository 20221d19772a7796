import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { TAGS } from './common.ts';
import type { EndpointDef } from './endpoint.ts';
import { endpoints } from './endpoints.ts';
import { ERROR_STATUS } from './errors.ts';
import { buildOpenApi } from './openapi.ts';

type Operation = {
  operationId: string;
  tags: string[];
  security: unknown[];
  parameters: Array<{ name: string; in: string }>;
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

const all: EndpointDef[] = Object.values(endpoints);
const document = buildOpenApi(all, { serverUrl: 'http://localhost:8787' }) as unknown as Document;

/** Every method and path of spec section 4 (with 4.12 on `{app_url}`) and section 9. */
const SPEC_OPERATIONS = [
  // 4.2 Generation
  'POST /v2/image',
  'POST /v2/video',
  'POST /v2/video/analyze',
  'POST /v2/speech',
  'POST /v2/music',
  'POST /v2/transcription',
  'POST /v2/ffmpeg',
  'POST /v2/tools/{tool_key}/call',
  // 4.3 Tools
  'GET /v2/tools',
  'GET /v2/tools/{tool_key}',
  // 4.4 Jobs
  'GET /v2/jobs/{id}',
  'POST /v2/jobs/{id}/refresh',
  'GET /v2/jobs/{id}/price',
  'GET /v2/jobs/{id}/status',
  'POST /v2/jobs/{id}/cancel',
  'POST /v2/jobs/{id}/retry',
  // 4.5 Files
  'POST /v2/files',
  'POST /v2/files/upload-session',
  'PUT /v2/files/upload/{session_id}',
  'POST /v2/files/import',
  // 4.6 Folders
  'POST /v2/workspaces',
  // 4.7 Presets
  'GET /v2/presets/{id}',
  // 4.8 Templates
  'POST /v2/templates/{id}/use',
  'GET /v2/templates/tags',
  // 4.9 Pricing
  'GET /v2/pricing',
  // 4.10 Analytics
  'GET /v2/analytics/summary',
  // 4.11 Account and API keys
  'POST /v2/api-keys/{id}/reveal',
  'POST /v2/api-keys/{id}/shares',
  // 4.12 Command-line sign-in
  'POST /api/auth/cli/send-otp',
  'POST /api/auth/cli/verify-otp',
  // 9 Versioning (and 5.7)
  'GET /v2/openapi.json',
  'GET /v2/openapi.yaml',
  'GET /v1/balance',
  'POST /v1/ffmpeg/resize',
];

describe('OpenAPI document of the whole endpoint table', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.specification).toBe('OpenAPI');
  });

  it('has every operation of the spec with its method', () => {
    const present = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const missing = SPEC_OPERATIONS.filter((operation) => !present.has(operation));
    expect(missing).toEqual([]);
  });

  it('lists every endpoint of the table once, under a spec tag, but the internal ones', () => {
    const published = all.filter((e) => !e.internal);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(published.length);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(published.length);
    for (const operation of operations) expect(TAGS).toContain(operation.tags[0]);
  });

  it('leaves the dev mailbox and the demo sign-in out: they are helpers of this server, not the interface', () => {
    expect(all.filter((e) => e.internal).map((e) => e.operationId)).toEqual(['devMailbox', 'devDemo']);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/dev/'))).toEqual([]);
  });

  it('keys the table by operationId', () => {
    for (const [name, endpoint] of Object.entries(endpoints)) expect(endpoint.operationId).toBe(name);
  });

  it("describes a key's expiry on the key and on its creation (issue #31)", () => {
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(schemas.ApiKey?.properties).toHaveProperty('expires_at');
    expect(schemas.CreateApiKeyRequest?.properties).toHaveProperty('expires_at');
    expect(ERROR_STATUS.api_key_expired).toBe(401);
  });

  it('describes restricted keys: their fields, the edit and rotate endpoints, and the refusals any key may meet', () => {
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    const restrictions = [
      'allowed_tools',
      'allowed_models',
      'allowed_ips',
      'read_only',
      'rate_limit_per_minute',
      'max_concurrent_jobs',
    ];
    for (const field of [...restrictions, 'service', 'rotated_at', 'previous_secret_expires_at']) {
      expect(schemas.ApiKey?.properties).toHaveProperty(field);
    }
    for (const field of [...restrictions, 'owner']) {
      expect(schemas.CreateApiKeyRequest?.properties).toHaveProperty(field);
    }
    for (const field of restrictions) expect(schemas.UpdateApiKeyRequest?.properties).toHaveProperty(field);
    expect(schemas.RotateApiKeyRequest?.properties).toHaveProperty('grace_seconds');
    expect(document.paths['/v2/api-keys/{id}']?.patch).toBeDefined();
    expect(document.paths['/v2/api-keys/{id}/rotate']?.post).toBeDefined();
    const jobs = document.paths['/v2/jobs']?.get as { responses: Record<string, unknown> };
    expect(Object.keys(jobs.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
  });

  it('documents budgets, key spend limits, the 402 spend_limit_exceeded and the budget alert webhook', () => {
    expect(Object.keys(document.paths['/v2/budgets'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/v2/budgets/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(document.paths['/v2/team/settings'] ?? {}).sort()).toEqual(['get', 'patch']);
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(schemas.ApiKey?.properties).toHaveProperty('spend_limit');
    expect(schemas.CreateApiKeyRequest?.properties).toHaveProperty('spend_limit');
    expect(Object.keys(schemas.Budget?.properties ?? {})).toEqual(
      expect.arrayContaining(['spent', 'remaining', 'period_start', 'resets_at', 'forecast']),
    );
    expect(Object.keys(schemas.SpendLimitExceededDetails?.properties ?? {})).toEqual(
      expect.arrayContaining(['remaining', 'resets_at', 'limit', 'period']),
    );
    expect(JSON.stringify(document.paths['/v2/image']?.post?.responses['402'])).toContain(
      'spend_limit_exceeded',
    );
    const webhooks = (document as unknown as { webhooks: Record<string, unknown> }).webhooks;
    expect(JSON.stringify(webhooks['budget.threshold_reached'])).toContain(
      '#/components/schemas/BudgetAlertEvent',
    );
  });

  it('makes the error envelope a real component, not a reference to itself', () => {
    expect(document.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
  });

  it('documents the job-creating answers: 202 and 200 with a Job, and the spec error statuses', () => {
    const image = document.paths['/v2/image']?.post;
    expect(Object.keys(image?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '402', '403', '404', '422', '429', '503']),
    );
    expect(JSON.stringify(image?.responses['202'])).toContain('#/components/schemas/Job');
  });

  it('requires no auth on pricing, optional auth on presets, a session for reveal and share', () => {
    expect(document.paths['/v2/pricing']?.get?.security).toEqual([]);
    expect(document.paths['/v2/presets/{id}']?.get?.security).toEqual([{}, { bearer: [] }]);
    expect(endpoints.revealApiKey.auth).toBe('session');
    expect(endpoints.shareApiKey.auth).toBe('session');
  });

  it('documents every analytics filter as a query parameter', () => {
    const names = document.paths['/v2/analytics/summary']?.get?.parameters.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'from',
        'to',
        'timezone',
        'compare_from',
        'compare_to',
        'compare',
        'capability',
        'model',
        'folder',
        'api_key',
        'member',
        'creator',
        'source',
        'status',
        'include_balance',
      ]),
    );
  });

  it('uses only known error codes', () => {
    for (const endpoint of all) {
      for (const code of endpoint.errors) expect(Object.keys(ERROR_STATUS)).toContain(code);
    }
  });

  it('marks every secret-carrying answer no-store', () => {
    const noStore = all.filter((e) => e.noStore).map((e) => e.operationId);
    expect(noStore).toEqual(
      expect.arrayContaining([
        'verifyOtp',
        'createApiKey',
        'revealApiKey',
        'getWebhookSecret',
        'rotateWebhookSecret',
      ]),
    );
  });
});
