import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { newWebhookId } from '../domain/webhooks/signature.ts';
import { createLogger } from '../logger.ts';
import { casesFor, type FuzzCase, type FuzzFixture, type Operation } from '../testing/fuzz/fuzz-cases.ts';
import type { Schema } from '../testing/fuzz/json-schema-sample.ts';
import { freshEmail, memberOf, person } from '../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

/*
 * The fuzz gate of issue 16: every route of /v2/openapi.json gets malformed JSON, wrong types, missing and
 * unknown fields, values at and past each limit, 1 MB strings, NUL and lone surrogates, deep nesting, wrong
 * content types, oversize bodies (chunked too) and wrong credentials, over a real socket. Every answer must be
 * a 4xx with the error envelope (or a success where the request may be right), never a 5xx, nothing logged as
 * an unhandled error, and nothing changed by a refused request. Seeded: FUZZ_SEED picks another sample.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 16);

let t: TestApp;
let server: http.Server;
let port: number;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const logged: string[] = [];

beforeAll(async () => {
  const log = createLogger('error', (line) => logged.push(line));
  t = await createTestApp({ SIGNUP_CREDITS: '100000000' }, { work: false, log });
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  // Set-up may have failed half-way: close what was opened.
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  await t?.close();
});

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

function send(c: FuzzCase): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = c.body === undefined ? undefined : Buffer.from(c.body, 'utf8');
    const headers = { ...c.headers };
    if (body && !c.chunked) headers['content-length'] = String(body.length);
    let answered = false;
    const request = http.request(
      { host: '127.0.0.1', port, path: c.target, method: c.method, headers, agent },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    // A 413 closes the connection while the body is still going out: the answer already arrived.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body && c.chunked) {
      for (let at = 0; at < body.length; at += 65_536) request.write(body.subarray(at, at + 65_536));
    } else if (body) {
      request.write(body);
    }
    request.end();
  });
}

/** What a refused request must leave as it was: rows people own, balances, names, roles, revocations. */
async function snapshot(): Promise<string> {
  const { rows } = await t.db.query(`
    SELECT
      (SELECT count(*) FROM jobs) AS jobs,
      (SELECT string_agg(id || status, ',' ORDER BY id) FROM jobs) AS job_states,
      (SELECT string_agg(id || name || coalesce(folder_id::text, '-') || coalesce(deleted_at::text, '-'), ',' ORDER BY id) FROM files) AS files,
      (SELECT string_agg(id::text || name || slug || visibility, ',' ORDER BY id) FROM workspaces) AS folders,
      (SELECT string_agg(id || name || coalesce(revoked_at::text, '-'), ',' ORDER BY id) FROM api_keys) AS keys,
      (SELECT count(*) FROM api_key_shares) AS shares,
      (SELECT count(*) FROM api_key_reveals) AS reveals,
      (SELECT string_agg(person_id::text || team_id::text || role, ',' ORDER BY person_id, team_id) FROM memberships) AS members,
      (SELECT count(*) FROM team_invitations) AS invitations,
      (SELECT string_agg(id::text || balance_cents, ',' ORDER BY id) FROM teams) AS balances,
      (SELECT count(*) FROM credit_ledger) AS ledger,
      (SELECT count(*) FROM upload_sessions) AS uploads,
      (SELECT count(*) FROM idempotency_keys) AS idempotency,
      (SELECT count(*) FROM persons) AS persons,
      (SELECT count(*) FROM sessions) AS sessions,
      (SELECT count(*) FROM webhook_secrets) AS webhook_secrets,
      (SELECT count(*) FROM dev_mailbox) AS mail
  `);
  return JSON.stringify(rows[0]);
}

/** Real objects of the fuzzing person, so that requests reach the code behind their ids. */
async function makeFixture(): Promise<FuzzFixture> {
  const owner = await person(t);
  const member = await memberOf(t, owner, 'member');
  const client = owner.client;
  const folder = (await client.createFolder({ body: { name: 'Fuzz folder' } })).workspace;
  const file = await client.uploadFile({
    body: { filename: 'fuzz.txt', data: Buffer.from('fuzz').toString('base64') },
  });
  const job = await client.createSpeech({ body: { text: 'fuzz' } });
  const session = await client.createUploadSession({ body: { size: 4 } });
  const key = (await client.createApiKey({ body: { name: 'fuzz key' } })).key;
  await client.shareApiKey({ params: { id: key.id }, body: { emails: [member.email] } });
  const invitation = await client.inviteTeamMember({ body: { email: freshEmail('invited') } });
  const preset = (await client.listPresets({ query: { limit: 1 } })).data[0];
  // A public address literal: the URL check needs no DNS for it.
  const endpoint = await client.createWebhookEndpoint({
    body: { url: 'https://93.184.215.14/fuzz', events: ['job.completed'] },
  });
  // A delivery of the endpoint, for the paths that name one (what a job's end would have made).
  const delivery = newWebhookId();
  await t.db.query(
    `INSERT INTO webhook_deliveries (webhook_id, team_id, endpoint_id, event_type, url, payload, status, attempts)
     VALUES ($1, $2, $3, 'budget.threshold_reached', $4, '{}', 'failed', 1)`,
    [delivery, owner.teamId, endpoint.id, endpoint.url],
  );
  const budget = await client.createBudget({
    body: { scope: { type: 'team', id: owner.teamId }, credits: 1000, period: 'month', mode: 'alert' },
  });
  if (!preset || !('session_id' in session)) throw new Error('fixture incomplete');
  const values: Array<[RegExp, Record<string, string>]> = [
    [/^\/v2\/jobs\//, { id: job.id }],
    [/^\/v2\/files\/upload\//, { session_id: session.session_id }],
    [/^\/v2\/files\//, { id: file.id }],
    [/^\/v2\/workspaces\//, { id_or_slug: folder.id }],
    [/^\/v2\/presets\//, { id: preset.id }],
    [/^\/v2\/templates\//, { id: 'tpl_000000000000' }],
    [/^\/v2\/api-keys\//, { id: key.id, user_id: member.id }],
    [/^\/v2\/team\/invitations\//, { id: invitation.id }],
    [/^\/v2\/team\/members\//, { user_id: member.id }],
    [/^\/v2\/tools\//, { tool_key: 'image' }],
    [/^\/v2\/webhook-endpoints\//, { id: endpoint.id, webhook_id: delivery }],
    [/^\/v2\/budgets\//, { id: budget.id }],
  ];
  return {
    token: owner.token,
    apiKey: owner.apiKey,
    pathValue: (path, name) => values.find(([pattern]) => pattern.test(path))?.[1][name] ?? 'fuzz',
    ctx: {
      schemas: {},
      candidates: [
        'local-sketch',
        job.id,
        file.id,
        key.id,
        preset.id,
        '16:9',
        '#000000',
        'aGVsbG8=',
        'text/plain',
        'a1',
      ],
      formats: {
        uri: file.url,
        email: 'fuzz@example.com',
        uuid: folder.id,
        'date-time': new Date().toISOString(),
        date: '2026-01-01',
      },
      byName: {
        email: 'fuzz@example.com',
        emails: ['fuzz@example.com'],
        code: '123456',
        input: { prompt: 'fuzz' },
      },
      optionalPicks: ['prompt', 'name', 'width'],
    },
  };
}

/**
 * 503 provider_unavailable is the documented answer to a well-formed request for a model this machine
 * cannot run (transcription without PocketSphinx, say): the request was fine, the machine lacks a program.
 */
function isModelUnavailable(answer: Answer): boolean {
  if (answer.status !== 503) return false;
  try {
    return ErrorEnvelope.parse(JSON.parse(answer.body)).error.code === 'provider_unavailable';
  } catch {
    return false;
  }
}

/** Why an answer breaks the rules, or null when it keeps them. */
function problemWith(c: FuzzCase, op: Operation, answer: Answer, changed: boolean): string | null {
  if (answer.status >= 500 && !isModelUnavailable(answer)) {
    return `answered ${answer.status}: ${answer.body.slice(0, 300)}`;
  }
  if (c.expect === 'refused' && answer.status >= 500)
    return `answered ${answer.status} to a request it must refuse`;
  if (c.expect === 'refused' && answer.status < 400)
    return `accepted (${answer.status}) a request it must refuse`;
  // What the server answers, its document says it may (clients are generated from it).
  if (!(String(answer.status) in op.responses))
    return `answered ${answer.status}, which the document does not list`;
  if (answer.status < 400) return null;
  if (changed) return `refused with ${answer.status} but changed the data`;
  let envelope: ErrorEnvelope;
  try {
    envelope = ErrorEnvelope.parse(JSON.parse(answer.body));
  } catch {
    return `answered ${answer.status} without the error envelope: ${answer.body.slice(0, 200)}`;
  }
  if (!answer.contentType.startsWith('application/json')) return `answered ${answer.contentType}`;
  if (c.statuses && !c.statuses.includes(answer.status)) {
    return `answered ${answer.status} (${envelope.error.message.slice(0, 200)}), expected ${c.statuses.join(' or ')}`;
  }
  if (c.fields) {
    const named = ((envelope.error.details as { fields?: Array<{ field: string }> })?.fields ?? []).map(
      (f) => f.field,
    );
    const missing = c.fields.filter((f) => !named.includes(f));
    if (missing.length > 0) return `did not name ${missing.join(', ')} (named: ${named.join(', ')})`;
  }
  return null;
}

describe('fuzzing every route of /v2/openapi.json', () => {
  it('answers malformed requests with a 4xx envelope, never a 5xx, and changes nothing on a refusal', async () => {
    const doc = (await (await t.request('/v2/openapi.json')).json()) as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
      components: { schemas: Record<string, Schema> };
    };
    const fixture = await makeFixture();
    fixture.ctx.schemas = doc.components.schemas;
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ ...op, method, path }) as Operation),
    );
    // Signing out (which a wrongly accepted request would do) ends the fixture's session: it goes last.
    const signOutLast = (op: Operation) => (op.path === '/api/auth/sign-out' ? 1 : 0);
    operations.sort((a, b) => signOutLast(a) - signOutLast(b));
    const cases = operations.flatMap((op) => casesFor(op, fixture, SEED).map((c) => ({ c, op })));

    const problems: string[] = [];
    let before = await snapshot();
    for (const { c, op } of cases) {
      const seenLines = logged.length;
      const answer = await send(c);
      const after = await snapshot();
      const problem = problemWith(c, op, answer, after !== before);
      if (problem) problems.push(`${c.operation} with ${c.label}: ${problem}`);
      const unhandled = logged.slice(seenLines).filter((line) => line.includes('unhandled error'));
      if (unhandled.length > 0)
        problems.push(`${c.operation} with ${c.label}: logged ${unhandled[0]!.slice(0, 300)}`);
      before = after;
    }
    expect(operations.length).toBeGreaterThan(60);
    expect(cases.length).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
  }, 180_000);
});
