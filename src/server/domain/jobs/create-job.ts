import { createHash, randomBytes } from 'node:crypto';
import type { ToolKey } from '../../../contract/common.ts';
import type { Job } from '../../../contract/jobs.ts';
import { namedStatements } from '../../db/named-statements.ts';
import { type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { hold } from '../billing/ledger.ts';
import { checkBudgetAlertsLater } from '../budgets/budget-alerts.ts';
import { enforceSpendCaps } from '../budgets/budget-spend.ts';
import { retiredModelMessage } from '../catalog/lifecycle.ts';
import { checkModelInput } from '../catalog/model-input.ts';
import type { ModelDefinition, ProviderOffer } from '../catalog/types.ts';
import { resolveFolder } from '../folders/folders.ts';
import type { AuthContext } from '../identity/auth-context.ts';
import { type KeyRestrictions, refuseToolOrModel } from '../identity/key-restrictions.ts';
import { type CheckUrls, requestUrls } from './check-input-urls.ts';
import { type JobRow, toJob } from './job-row.ts';
import { costOf, estimateUnits, UNIT_NAMES } from './pricing.ts';
import type { RunInput } from './provider.ts';
import { ProviderError } from './provider-error.ts';
import { runQueueFor } from './queue-names.ts';
import {
  askedSeconds,
  estimatedDurationMs,
  measuredRuns,
  runEstimate,
  typicalRunMs,
} from './run-estimate.ts';

/** Idempotency keys are kept for 24 hours (then the same key starts a new job). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export interface CreateJobRequest {
  tool: ToolKey;
  body: Record<string, unknown>;
  idempotencyKey?: string | undefined;
  workspace?: string | undefined;
  retryOf?: string;
}

export interface CreatedJob {
  job: Job;
  /** True when an Idempotency-Key replay returned an existing job (answer 200, not 202). */
  replay: boolean;
}

function newJobId(): string {
  return `job_${randomBytes(16).toString('hex')}`;
}

/** JSON with sorted keys, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The model a request names (or the tool's first available model), and which provider runs it. */
export function chooseModel(
  s: Services,
  tool: ToolKey,
  body: Record<string, unknown>,
): { model: ModelDefinition; offer: ProviderOffer } {
  const requested = typeof body.model === 'string' ? body.model : undefined;
  let model: ModelDefinition;
  let pinned: string | null = null;
  if (requested) {
    const resolved = s.catalog.resolve(requested);
    if (!resolved || resolved.model.tool !== tool) {
      throw new AppError('model_not_found', `Model \`${requested}\` was not found for the ${tool} tool.`, {
        details: { model: requested, tool },
      });
    }
    model = resolved.model;
    pinned = resolved.pinnedProvider;
    refuseRetired(s, model);
  } else {
    const candidates = s.catalog
      .modelsOf(tool)
      .filter((m) => m.id !== 'video-analyze' && s.catalog.lifecycle(m).status !== 'retired');
    const first = candidates.find((m) => s.catalog.modelAvailable(m)) ?? candidates[0];
    if (!first)
      throw new AppError('provider_unavailable', `No model of the ${tool} tool can run on this server.`);
    model = first;
  }
  model = imageToVideoVariant(s, tool, model, body);
  const offers = pinned ? model.offers.filter((o) => o.provider === pinned) : model.offers;
  const offer = offers.find((o) => s.catalog.isAvailable(o));
  if (!offer) {
    const reasons = offers.map((o) => `${o.provider}: ${s.catalog.unavailableReason(o) ?? 'unavailable'}`);
    throw new AppError(
      'provider_unavailable',
      `Model \`${model.id}\` cannot run on this server. ${reasons.join(' ')}`,
      {
        details: { model: model.id, providers: reasons },
      },
    );
  }
  return { model, offer };
}

/**
 * A retired model is known (old jobs name it) but never run: 404 `model_retired`, naming the day it
 * stopped and the model to use instead, so a client can switch without reading the catalog.
 */
function refuseRetired(s: Services, model: ModelDefinition): void {
  const lifecycle = s.catalog.retirement(model);
  if (!lifecycle) return;
  throw new AppError('model_retired', retiredModelMessage(model.id, lifecycle), {
    details: { model: model.id, retired_on: lifecycle.retiredOn, replacement: lifecycle.replacement ?? null },
  });
}

/**
 * The provider's own estimate of the units a request uses, when it has one. A request the provider can
 * already tell it will refuse (a voice preset of another provider, say) is refused here with a 422.
 */
function providerEstimate(s: Services, input: RunInput): number | null {
  try {
    return s.providers.get(input.offer.provider)?.estimateUnits?.(input) ?? null;
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'provider_rejected') {
      throw new AppError('invalid_request', error.message, { status: 422 });
    }
    throw error;
  }
}

/** What a request to `offer` is expected to cost: the provider's own estimate of units, else the body's. */
function estimateOf(
  s: Services,
  model: ModelDefinition,
  offer: ProviderOffer,
  body: Record<string, unknown>,
) {
  if (!Number.isFinite(offer.unitPrice) || offer.unitPrice < 0) {
    throw new AppError(
      'pricing_unavailable',
      `No price is available for \`${model.id}\` on ${offer.provider}.`,
    );
  }
  return costOf(offer, providerEstimate(s, { model, offer, body }) ?? estimateUnits(offer, body));
}

/**
 * A pipeline's estimate: the sum of its steps' estimates, each priced as its job will be (an input that
 * an earlier step makes is unknown yet, so its step is priced from the model's typical request).
 */
function pipelineEstimate(s: Services, body: Record<string, unknown>): number {
  const steps = Array.isArray(body.steps)
    ? (body.steps as Array<{ tool: ToolKey; input: Record<string, unknown> }>)
    : [];
  return steps.reduce((sum, step) => {
    const { model, offer } = chooseModel(s, step.tool, step.input);
    return sum + estimateOf(s, model, offer, step.input);
  }, 0);
}

/**
 * 403 when a restricted key may not run this request: its tool and model, or for a pipeline, the pipeline
 * tool and every step's tool and model (all of them, before anything is held). Checked before the model's
 * availability, so the answer is the same whether or not this server can run it. The model a request
 * names is checked as well as what runs, so an allowed video model whose image-to-video variant runs is
 * allowed; a request naming no model is checked with the model it would get.
 */
function refuseForKey(
  s: Services,
  r: KeyRestrictions | undefined,
  tool: ToolKey,
  body: Record<string, unknown>,
): void {
  if (!r) return;
  if (tool === 'pipeline') {
    // The pipeline itself runs no model of its own: its steps do.
    refuseToolOrModel({ ...r, allowedModels: null }, tool, 'pipeline');
    const steps = Array.isArray(body.steps)
      ? (body.steps as Array<{ tool: ToolKey; input: Record<string, unknown> }>)
      : [];
    for (const step of steps) refuseForKey(s, r, step.tool, step.input ?? {});
    return;
  }
  if (!r.allowedModels) {
    refuseToolOrModel(r, tool, '');
    return;
  }
  const named = typeof body.model === 'string' ? s.catalog.resolve(body.model)?.model : undefined;
  // An unknown model, or one of another tool, is chooseModel's to answer (404 model_not_found).
  if (typeof body.model === 'string' && (!named || named.tool !== tool)) {
    refuseToolOrModel({ ...r, allowedModels: null }, tool, '');
    return;
  }
  const model = named ? imageToVideoVariant(s, tool, named, body) : chooseModel(s, tool, body).model;
  refuseToolOrModel(r, tool, model.id, named?.id);
}

/**
 * 429 when a key capped at `max` jobs at once already has that many queued or running. Called in the
 * creating transaction after locking the key's row, so concurrent creations by the key count one by one.
 */
async function refuseOverConcurrency(tx: Queryable, apiKeyId: string, max: number): Promise<void> {
  await tx.query('SELECT 1 FROM api_keys WHERE id = $1 FOR UPDATE', [apiKeyId]);
  const { rows } = await tx.query<{ active: number; soonest_ms: number | null }>(
    `SELECT count(*)::int AS active,
            min(extract(epoch FROM (created_at - now())) * 1000 + coalesce(estimated_duration_ms, 10000))::float8
              AS soonest_ms
       FROM jobs WHERE api_key_id = $1 AND status IN ('queued', 'submitting', 'running')`,
    [apiKeyId],
  );
  const { active, soonest_ms } = rows[0]!;
  if (active < max) return;
  // When the first of them is expected to end, within reason: a hint, not a promise.
  const retryAfter = Math.min(60, Math.max(1, Math.ceil((soonest_ms ?? 1000) / 1000)));
  throw new AppError(
    'rate_limited',
    `This API key may run at most ${max} job${max === 1 ? '' : 's'} at once and has ${active} queued or running: try again when one finishes.`,
    {
      details: { max_concurrent_jobs: max, active_jobs: active, retry_after_seconds: retryAfter },
      headers: { 'retry-after': String(retryAfter) },
    },
  );
}

const IMAGE_EXTENSION = /\.(png|jpe?g|webp|gif|avif|bmp|tiff?)$/i;

/** Spec 4.2: an image start frame on a video model with an image-to-video variant runs that variant. */
function imageToVideoVariant(
  s: Services,
  tool: ToolKey,
  model: ModelDefinition,
  body: Record<string, unknown>,
) {
  if (tool !== 'video' || !model.imageToVideoVariant) return model;
  const files = Array.isArray(body.files) ? (body.files as Array<{ url?: unknown }>) : [];
  const hasImage = files.some(
    (f) => typeof f.url === 'string' && IMAGE_EXTENSION.test(new URL(f.url).pathname),
  );
  return hasImage ? (s.catalog.resolve(model.imageToVideoVariant)?.model ?? model) : model;
}

/** The input files a body reads (files, video_url, audio_url), for lineage; requestUrls is what is checked. */
export function inputUrls(body: Record<string, unknown>): string[] {
  const urls: string[] = [];
  if (Array.isArray(body.files)) {
    for (const file of body.files as Array<{ url?: unknown }>)
      if (typeof file.url === 'string') urls.push(file.url);
  }
  for (const field of ['video_url', 'audio_url'])
    if (typeof body[field] === 'string') urls.push(body[field] as string);
  return urls;
}

/**
 * Models whose output depends only on the request body (no external inputs that could change). The key
 * holds the team and the folder the output is filed in: a hit answers with the earlier job's files, so it
 * must come from a job whose files the caller can read, and must not tell anyone what another team (or a
 * private folder) asked for.
 */
function cacheKeyOf(
  model: ModelDefinition,
  offer: ProviderOffer,
  body: Record<string, unknown>,
  scope: { teamId: string; folderId: string | null },
): string | null {
  const options = (body.options ?? {}) as { cache?: boolean };
  if (options.cache === false || !model.deterministic) return null;
  const { options: _ignored, ...work } = body;
  return sha256(
    canonical({
      team: scope.teamId,
      folder: scope.folderId,
      model: model.id,
      provider: offer.provider,
      work,
    }),
  ).toString('hex');
}

/**
 * Takes a job-creating request: checks, prices, holds the estimate and inserts the job and its run
 * message in one transaction. An Idempotency-Key is claimed in the same transaction, so concurrent
 * duplicates wait for the first and then replay its job.
 */
export async function createJob(
  s: Services,
  auth: AuthContext,
  request: CreateJobRequest,
  checkUrls: CheckUrls,
): Promise<CreatedJob> {
  refuseForKey(s, auth.restrictions, request.tool, request.body);
  const { model, offer } = chooseModel(s, request.tool, request.body);
  checkModelInput(model, request.body);
  const pipeline = request.tool === 'pipeline';
  // A pipeline charges nothing itself: its estimate is the sum of its steps', which each hold their own.
  const estimate = pipeline ? pipelineEstimate(s, request.body) : estimateOf(s, model, offer, request.body);
  // Every URL of the body, render layers and pipeline steps included; webhooks are refused now too,
  // rather than failing (and retrying) at delivery.
  const urls = requestUrls(request.body);
  const webhookUrl = ((request.body.options ?? {}) as { webhook_url?: string }).webhook_url ?? null;
  await checkUrls(urls.inputs);
  if (urls.webhooks.length) await checkUrls(urls.webhooks, 'webhook');
  const requestHash = sha256(
    canonical({ tool: request.tool, body: request.body, workspace: request.workspace ?? null }),
  );
  const queue = runQueueFor(request.tool, offer.provider);
  const expectedRun = runEstimate(
    await measuredRuns(s.db, model.id, offer.provider),
    askedSeconds(request.body),
    typicalRunMs(model),
  );
  const baseUrl = `${s.config.PUBLIC_URL}/v2`;

  const created = await transaction(s.db, async (tx): Promise<CreatedJob> => {
    if (request.idempotencyKey) {
      await tx.query(
        `DELETE FROM idempotency_keys WHERE team_id = $1 AND key = $2 AND created_at < now() - make_interval(hours => $3)`,
        [auth.teamId, request.idempotencyKey, IDEMPOTENCY_TTL_HOURS],
      );
      // A concurrent request with the same key blocks here until the first commits or rolls back.
      const claimed = await tx.query(
        `INSERT INTO idempotency_keys (team_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`,
        [auth.teamId, request.idempotencyKey, requestHash],
      );
      if (claimed.rowCount === 0) {
        const { rows } = await tx.query<{ request_hash: Buffer; job_id: string | null }>(
          'SELECT request_hash, job_id FROM idempotency_keys WHERE team_id = $1 AND key = $2',
          [auth.teamId, request.idempotencyKey],
        );
        const existing = rows[0];
        if (!existing?.job_id)
          throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed.');
        if (!existing.request_hash.equals(requestHash)) {
          throw new AppError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
          );
        }
        const job = await tx.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [existing.job_id]);
        return { job: toJob(job.rows[0]!, baseUrl), replay: true };
      }
    }

    const maxConcurrent = auth.restrictions?.maxConcurrentJobs;
    if (maxConcurrent && auth.apiKeyId) await refuseOverConcurrency(tx, auth.apiKeyId, maxConcurrent);
    const folderId = await resolveFolder(tx, auth, request.workspace);
    const cacheKey = cacheKeyOf(model, offer, request.body, { teamId: auth.teamId, folderId });
    const cached = cacheKey
      ? (await tx.query('SELECT 1 FROM result_cache WHERE cache_key = $1', [cacheKey])).rowCount === 1
      : false;
    const id = newJobId();
    const held = cached || pipeline ? 0 : estimate;
    const attribution = {
      teamId: auth.teamId,
      personId: auth.personId,
      apiKeyId: auth.apiKeyId,
      source: auth.source,
      tool: request.tool,
      model: model.id,
      folderId,
      jobId: id,
      jobStatus: 'queued',
    };
    // Key spend limits and hard-cap budgets, locked and counted in this transaction: a pipeline is
    // checked for the sum of its steps (which then each hold, and are checked, as they start).
    await enforceSpendCaps(tx, attribution, pipeline && !cached ? estimate : held);
    if (!(await hold(tx, held, attribution))) {
      const { rows } = await tx.query<{ balance_cents: number }>(
        'SELECT balance_cents FROM teams WHERE id = $1',
        [auth.teamId],
      );
      throw new AppError(
        'insufficient_balance',
        `This job needs ${estimate} credits; the balance is ${rows[0]?.balance_cents ?? 0}.`,
        { details: { required_cents: estimate, balance_cents: rows[0]?.balance_cents ?? 0 } },
      );
    }
    const { rows } = await tx.query<JobRow>(
      `INSERT INTO jobs (id, team_id, api_key_id, person_id, source, tool, model, status, input, estimated_duration_ms,
                         estimated_cost_cents, pricing_id, billing, provider, provider_model, folder_id, webhook_url,
                         retry_of, cache_key, held_cents, estimated_run)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       RETURNING *`,
      [
        id,
        auth.teamId,
        auth.apiKeyId,
        auth.personId,
        auth.source,
        request.tool,
        model.id,
        JSON.stringify(request.body),
        estimatedDurationMs(expectedRun),
        estimate,
        offer.pricingId,
        UNIT_NAMES[offer.unit].billing,
        offer.provider,
        `${offer.provider}:${model.id}`,
        folderId,
        webhookUrl,
        request.retryOf ?? null,
        cacheKey,
        held,
        JSON.stringify(expectedRun),
      ],
    );
    if (request.idempotencyKey) {
      await tx.query('UPDATE idempotency_keys SET job_id = $3 WHERE team_id = $1 AND key = $2', [
        auth.teamId,
        request.idempotencyKey,
        id,
      ]);
    }
    // The run message commits with the job: no job without its run, no run without its job.
    await s.boss.send(queue, { jobId: id }, { db: namedStatements(tx) });
    return { job: toJob(rows[0]!, baseUrl), replay: false };
  });
  if (!created.replay) {
    // The job id is the thread through every process's logs: the worker that runs it logs it too.
    s.log.info('job created', {
      job_id: created.job.id,
      team_id: auth.teamId,
      tool: request.tool,
      model: model.id,
      provider: offer.provider,
      queue,
    });
    s.wakeQueue(queue);
    // Alerts go out after the commit, never inside the money's transaction, and never fail the job.
    if (created.job.estimated_cost_cents > 0) {
      checkBudgetAlertsLater(s, {
        teamId: auth.teamId,
        personId: auth.personId,
        apiKeyId: auth.apiKeyId,
        folderId: created.job.folder_id ?? null,
      });
    }
  }
  return created;
}
