import type { Config } from '../../config.ts';
import type { RunInput } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import {
  type CommonBody,
  type Family,
  familyIn,
  isPlainObject,
  type Json,
  mergeOptions,
  nativeInput,
  progressFromLogs,
  SUBMIT_TIMEOUT_MS,
  unitsFor,
  unitsOf,
} from './native-input.ts';
import { providerFetch, providerJson } from './provider-http.ts';
import { logTail } from './provider-storage.ts';
import type { RemoteAdapter, RemoteJobState, SubmittedInput } from './remote-provider.ts';
import { createReplicateStorage } from './replicate-files.ts';
import { REPLICATE_FAMILIES } from './replicate-inputs.ts';
import { replicateResult } from './replicate-outputs.ts';
import { createReplicateWebhookVerifier } from './replicate-webhooks.ts';

/*
 * Replicate's HTTP API (replicate.com/docs/reference/http; prediction lifecycle and rate limits under
 * replicate.com/docs/topics/predictions), authenticated with `Authorization: Bearer <token>`:
 * - POST {REPLICATE_API_URL}/models/{owner}/{name}/predictions { input }   official models (`owner/name`)
 * - POST {REPLICATE_API_URL}/predictions { version, input }               community models (`owner/name:<version>`)
 * - GET  {REPLICATE_API_URL}/predictions/{id}
 *        -> status starting | processing | succeeded | failed | canceled | aborted, logs, output, error
 * - POST {REPLICATE_API_URL}/predictions/{id}/cancel
 * We do not send `Prefer: wait`: it holds the create call open for up to 60 s, which our polling
 * already does without tying up a connection (and without racing the request timeout).
 * With a webhook URL the create carries `webhook` and `webhook_events_filter: ["completed"]`
 * (replicate.com/docs/topics/webhooks): Replicate POSTs the whole prediction, signed
 * (replicate-webhooks.ts). A create whose answer was lost is looked up in
 * GET {REPLICATE_API_URL}/predictions (newest first, `next` is the following page's URL).
 * Moderation is not a separate status: the prediction fails and its `error` says why, in the model's
 * words ("NSFW content detected", "flagged as sensitive (E005)"); those become content_policy_violation.
 */

/** How models on Replicate word a refusal by their safety checker or moderation. */
const MODERATION =
  /\bnsfw\b|flagged as sensitive|\bE005\b|content policy|safety (checker|filter|system)|moderation/i;
/** Our clock and Replicate's may differ: predictions created a little before `sentAt` are candidates. */
const CLOCK_SKEW_MS = 2 * 60_000;
/** Pages of the prediction list read while looking for a lost create (100 predictions a page). */
const MAX_LIST_PAGES = 5;
/**
 * Pages read for one batched status check: enough for the jobs asked about plus a little traffic of the
 * account's own (its other servers, the website), never more than this.
 */
const MAX_BATCH_PAGES = 20;

const WHO = 'Replicate';

interface Prediction {
  id?: unknown;
  model?: unknown;
  version?: unknown;
  status?: unknown;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  logs?: unknown;
  webhook?: unknown;
  created_at?: unknown;
}

export function createReplicateAdapter(
  config: Pick<Config, 'REPLICATE_API_TOKEN' | 'REPLICATE_API_URL'>,
): RemoteAdapter {
  const origin = new URL(config.REPLICATE_API_URL).origin;
  const base = config.REPLICATE_API_URL.replace(/\/+$/, '');
  const headers = () => ({ authorization: `Bearer ${config.REPLICATE_API_TOKEN}` });

  function familyOf(modelId: string): Family {
    const family = familyIn(REPLICATE_FAMILIES, modelId);
    if (family) return family;
    throw new ProviderError('provider_rejected', `The Replicate adapter cannot call ${modelId}.`);
  }

  function predictionUrl(id: string): string {
    return `${base}/predictions/${encodeURIComponent(id)}`;
  }

  /** Our reading of a prediction; `input` is the one Replicate echoes, so a resumed job bills what ran. */
  function stateOf(input: SubmittedInput, prediction: Prediction): RemoteJobState {
    const providerStatus = typeof prediction.status === 'string' ? prediction.status : 'unknown';
    const logs =
      typeof prediction.logs === 'string' && prediction.logs ? logTail(prediction.logs) : undefined;
    const common = {
      providerJobId: input.providerJobId,
      providerStatus,
      progress: null,
      message: null,
      ...(logs ? { logs } : {}),
    };
    switch (providerStatus) {
      case 'starting':
        return { ...common, phase: 'queued' };
      case 'succeeded': {
        const family = familyOf(input.offer.providerModelId);
        const body = input.body as CommonBody;
        const sent = isPlainObject(prediction.input)
          ? prediction.input
          : mergeOptions(family.fields(body), body.provider_options?.replicate);
        const result = replicateResult(family, prediction.output, body.language);
        return {
          ...common,
          phase: 'succeeded',
          progress: 1,
          outputs: result.outputs,
          billedUnits: unitsOf(
            family,
            { body, sent, typicalUnits: input.offer.typicalUnits, result },
            input.offer.unit,
          ),
        };
      }
      case 'failed': {
        const error =
          typeof prediction.error === 'string' && prediction.error
            ? prediction.error
            : 'the prediction failed';
        return {
          ...common,
          phase: 'failed',
          error,
          ...(MODERATION.test(error) ? { errorCode: 'content_policy_violation' as const } : {}),
        };
      }
      // `aborted`: the prediction's deadline passed before it started.
      case 'canceled':
      case 'aborted':
        return { ...common, phase: 'cancelled' };
      default: {
        const done = progressFromLogs(logs ?? '');
        return {
          ...common,
          phase: 'running',
          progress: done === null ? null : 0.1 + 0.8 * done,
          message: done === null ? null : `Running at Replicate (${Math.round(done * 100)}%)`,
        };
      }
    }
  }

  const storage = createReplicateStorage({ apiUrl: base, token: config.REPLICATE_API_TOKEN });
  const verifyWebhook = createReplicateWebhookVerifier({ apiUrl: base, token: config.REPLICATE_API_TOKEN });

  /** A URL from Replicate's answer (the list's `next`), used only on the configured host. */
  function ownUrl(value: unknown): string | null {
    if (typeof value !== 'string') return null;
    try {
      return new URL(value).origin === origin ? value : null;
    } catch {
      return null;
    }
  }

  /** Whether `prediction` is the one a create for `input` made: by our webhook URL, else by model and input. */
  function isOurs(input: RunInput & { jobId: string }, prediction: Prediction, sentFields: Json): boolean {
    if (typeof prediction.webhook === 'string' && prediction.webhook.includes(input.jobId)) return true;
    const [model, version] = input.offer.providerModelId.split(':');
    if (prediction.model !== model) return false;
    if (version && prediction.version !== version) return false;
    if (!isPlainObject(prediction.input)) return false;
    // The derived fields and provider_options must be there as sent; input files were uploaded, so their
    // URLs are Replicate's own and are not compared.
    const given = prediction.input;
    return Object.entries(sentFields).every(
      ([key, value]) => JSON.stringify(given[key]) === JSON.stringify(value),
    );
  }

  return {
    id: 'replicate',
    keyVariable: 'REPLICATE_API_TOKEN',
    key: config.REPLICATE_API_TOKEN,
    supports: (providerModelId) => familyIn(REPLICATE_FAMILIES, providerModelId) !== undefined,

    estimateUnits(input) {
      const family = familyIn(REPLICATE_FAMILIES, input.offer.providerModelId);
      if (!family) return null;
      const body = input.body as CommonBody;
      const sent = mergeOptions(family.fields(body), body.provider_options?.replicate);
      return unitsFor(
        input.offer.unit,
        unitsOf(family, { body, sent, typicalUnits: input.offer.typicalUnits }),
      );
    },

    async submit(input, context) {
      const modelId = input.offer.providerModelId;
      const body = input.body as CommonBody;
      const { sent } = await nativeInput(familyOf(modelId), 'replicate', modelId, body, context, storage);
      const [model, version] = modelId.split(':');
      // From here on a failure may have created the prediction.
      await context.beforeSend();
      const prediction = await providerJson<Prediction>(
        WHO,
        version ? `${base}/predictions` : `${base}/models/${model}/predictions`,
        {
          method: 'POST',
          headers: headers(),
          json: {
            ...(version ? { version } : {}),
            input: sent,
            ...(context.webhookUrl
              ? { webhook: context.webhookUrl, webhook_events_filter: ['completed'] }
              : {}),
          },
          signal: context.signal,
          timeoutMs: SUBMIT_TIMEOUT_MS,
        },
      );
      if (typeof prediction.id !== 'string' || !prediction.id) {
        throw new ProviderError('provider_error', 'Replicate accepted the job without a prediction id.');
      }
      return stateOf({ ...input, providerJobId: prediction.id }, prediction);
    },

    async poll(input, signal) {
      const prediction = await providerJson<Prediction>(WHO, predictionUrl(input.providerJobId), {
        headers: headers(),
        signal,
      });
      return stateOf(input, prediction);
    },

    /*
     * Batched status checks through the prediction list (replicate.com/docs/reference/http#predictions.list:
     * the account's predictions, newest first, 100 a page, each with its status). Sound as a "still running?"
     * check: a page answers up to 100 jobs where a GET answers one, which keeps thousands of followed jobs
     * under the documented 3000 requests a minute (replicate.com/docs/topics/predictions/rate-limits). Not
     * a replacement for the GET: the list carries no logs (so no progress), and it holds the whole account's
     * predictions, so reading stops at the oldest job asked about (less the clock skew) or MAX_BATCH_PAGES.
     * Finished and unlisted jobs are left to their own GET, which has the full record.
     */
    async pollMany(jobs, signal) {
      const wanted = new Map(jobs.map((job) => [job.input.providerJobId, job.input]));
      const since = Math.min(...jobs.map((job) => job.submittedAt.getTime())) - CLOCK_SKEW_MS;
      const pages = Math.min(MAX_BATCH_PAGES, Math.ceil(wanted.size / 100) + 2);
      const states = new Map<string, RemoteJobState>();
      let url: string | null = `${base}/predictions`;
      for (let page = 0; url && page < pages && wanted.size > 0; page++) {
        const answer: { results?: Prediction[]; next?: unknown } = await providerJson(WHO, url, {
          headers: headers(),
          signal,
        });
        let older = false;
        for (const listed of answer.results ?? []) {
          const created = typeof listed.created_at === 'string' ? Date.parse(listed.created_at) : NaN;
          if (created < since) older = true;
          const input = typeof listed.id === 'string' ? wanted.get(listed.id) : undefined;
          if (!input) continue;
          wanted.delete(listed.id as string);
          if (listed.status === 'starting' || listed.status === 'processing') {
            states.set(input.providerJobId, stateOf(input, listed));
          }
        }
        url = older ? null : ownUrl(answer.next);
      }
      return states;
    },

    async cancel(input) {
      await providerFetch(WHO, `${predictionUrl(input.providerJobId)}/cancel`, {
        method: 'POST',
        headers: headers(),
      });
    },

    verifyWebhook,

    stateFromWebhook(input, delivery) {
      try {
        const prediction = JSON.parse(delivery.body.toString('utf8')) as Prediction;
        return prediction.id === input.providerJobId ? stateOf(input, prediction) : null;
      } catch {
        return null;
      }
    },

    async findSubmitted(input, signal) {
      const family = familyOf(input.offer.providerModelId);
      const body = input.body as CommonBody;
      const sentFields = mergeOptions(family.fields(body), body.provider_options?.replicate);
      const since = input.sentAt.getTime() - CLOCK_SKEW_MS;
      const found: Prediction[] = [];
      let url: string | null = `${base}/predictions`;
      for (let page = 0; url; page++) {
        if (page >= MAX_LIST_PAGES) {
          throw new ProviderError(
            'provider_error',
            'Replicate lists too many predictions since the submit to tell.',
          );
        }
        const answer: { results?: Prediction[]; next?: unknown } = await providerJson(WHO, url, {
          headers: headers(),
          signal,
        });
        let older = false;
        for (const listed of answer.results ?? []) {
          const created = typeof listed.created_at === 'string' ? Date.parse(listed.created_at) : NaN;
          if (created < since) {
            older = true;
            continue;
          }
          if (typeof listed.id !== 'string') continue;
          // The list may leave out the input: read the prediction itself.
          const full =
            isPlainObject(listed.input) || typeof listed.webhook === 'string'
              ? listed
              : await providerJson<Prediction>(WHO, predictionUrl(listed.id), { headers: headers(), signal });
          if (isOurs(input, full, sentFields)) found.push(full);
        }
        url = older ? null : ownUrl(answer.next);
      }
      const byWebhook = found.filter((p) => typeof p.webhook === 'string' && p.webhook.includes(input.jobId));
      const matches = byWebhook.length ? byWebhook : found;
      if (matches.length === 0) return null;
      if (matches.length > 1) {
        throw new ProviderError(
          'provider_error',
          `Replicate has ${matches.length} predictions that could be this job's; not guessing which.`,
        );
      }
      const [prediction] = matches as [Prediction];
      return stateOf({ ...input, providerJobId: prediction.id as string }, prediction);
    },
  };
}
