import type { Config } from '../../config.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import {
  type CommonBody,
  type Family,
  familyIn,
  isPlainObject,
  mergeOptions,
  nativeInput,
  type ProviderStorage,
  progressFromLogs,
  SUBMIT_TIMEOUT_MS,
  unitsFor,
  unitsOf,
} from './native-input.ts';
import { providerFetch, providerJson } from './provider-http.ts';
import type { RemoteAdapter, RemoteJobState, SubmittedInput } from './remote-provider.ts';
import { REPLICATE_FAMILIES } from './replicate-inputs.ts';
import { replicateResult } from './replicate-outputs.ts';

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
 */

const WHO = 'Replicate';

interface Prediction {
  id?: unknown;
  status?: unknown;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  logs?: unknown;
}

export function createReplicateAdapter(
  config: Pick<Config, 'REPLICATE_API_TOKEN' | 'REPLICATE_API_URL'>,
): RemoteAdapter {
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
    const common = { providerJobId: input.providerJobId, providerStatus, progress: null, message: null };
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
      case 'failed':
        return {
          ...common,
          phase: 'failed',
          error:
            typeof prediction.error === 'string' && prediction.error
              ? prediction.error
              : 'the prediction failed',
        };
      // `aborted`: the prediction's deadline passed before it started.
      case 'canceled':
      case 'aborted':
        return { ...common, phase: 'cancelled' };
      default: {
        const done = progressFromLogs(typeof prediction.logs === 'string' ? prediction.logs : '');
        return {
          ...common,
          phase: 'running',
          progress: done === null ? null : 0.1 + 0.8 * done,
          message: done === null ? null : `Running at Replicate (${Math.round(done * 100)}%)`,
        };
      }
    }
  }

  // Replaced by the provider's storage upload (issue #26, inputs by URL).
  const storage: ProviderStorage = {
    inlineMaxBytes: 200 * 1024 * 1024,
    upload: () => Promise.reject(new ProviderError('provider_rejected', 'not yet')),
  };

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
      const prediction = await providerJson<Prediction>(
        WHO,
        version ? `${base}/predictions` : `${base}/models/${model}/predictions`,
        {
          method: 'POST',
          headers: headers(),
          json: version ? { version, input: sent } : { input: sent },
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

    async cancel(input) {
      await providerFetch(WHO, `${predictionUrl(input.providerJobId)}/cancel`, {
        method: 'POST',
        headers: headers(),
      });
    },
  };
}
