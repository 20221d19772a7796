import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Whether a provider can take work on this server, and if not, what would enable it. */
export interface ProviderStatus {
  available: boolean;
  reason: string | null;
}

export type ProviderAvailability = (provider: string, providerModelId: string) => ProviderStatus;

const PROVIDER_KEYS: Record<string, string> = {
  fal: 'FAL_KEY',
  replicate: 'REPLICATE_API_TOKEN',
  openai: 'OPENAI_API_KEY',
  elevenlabs: 'ELEVENLABS_API_KEY',
};

function onPath(binary: string, envPath = process.env.PATH ?? ''): boolean {
  return envPath.split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, binary), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Local models run when their engine is built into this server (and its system package, if any, is
 * installed); external ones need their key.
 */
export function availabilityFromEnv(
  env: Record<string, string | undefined>,
  localEngines: ReadonlySet<string>,
): ProviderAvailability {
  const pocketsphinx = onPath('pocketsphinx', env.PATH);
  return (provider, providerModelId) => {
    if (provider === 'local') {
      if (!localEngines.has(providerModelId)) {
        return {
          available: false,
          reason: 'Not available on this server yet: its local engine is not built.',
        };
      }
      if (providerModelId === 'pocketsphinx' && !pocketsphinx) {
        return {
          available: false,
          reason: 'Install the Debian packages pocketsphinx and pocketsphinx-en-us to enable it.',
        };
      }
      return { available: true, reason: null };
    }
    const variable = PROVIDER_KEYS[provider];
    if (variable && env[variable]) return { available: true, reason: null };
    return {
      available: false,
      reason: variable
        ? `Set ${variable} on the server to enable ${provider}.`
        : `Provider ${provider} is not supported here.`,
    };
  };
}
