import type { Provider } from '../jobs/provider.ts';
import { findPocketsphinx, POCKETSPHINX_INSTALL_HINT } from './pocketsphinx-setup.ts';

/** Whether a provider can take work on this server, and if not, what would enable it. */
export interface ProviderStatus {
  available: boolean;
  reason: string | null;
}

export type ProviderAvailability = (provider: string, providerModelId: string) => ProviderStatus;

/**
 * What can run here, as the providers themselves say: a local engine when it is built into this server
 * (and its system package, if any, is installed), an external model when its provider's key is set and
 * its adapter can call it. Read once at start-up: the answers do not change while the server runs.
 */
export function providerAvailability(
  providers: ReadonlyMap<string, Provider>,
  env: Record<string, string | undefined>,
): ProviderAvailability {
  const pocketsphinx = findPocketsphinx(env.PATH) !== null;
  const known = new Map<string, ProviderStatus>();
  return (providerId, providerModelId) => {
    const key = `${providerId}\u0000${providerModelId}`;
    let status = known.get(key);
    if (!status) {
      const provider = providers.get(providerId);
      let reason = provider
        ? provider.unavailableReason(providerModelId)
        : `Provider ${providerId} is not supported by this server.`;
      if (!reason && providerId === 'local' && providerModelId === 'pocketsphinx' && !pocketsphinx) {
        reason = POCKETSPHINX_INSTALL_HINT;
      }
      status = { available: reason === null, reason };
      known.set(key, status);
    }
    return status;
  };
}
