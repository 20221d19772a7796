import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { MODELS } from '../../domain/catalog/models.ts';
import { createRemoteProviders } from './remote-providers.ts';

const keys = {
  FAL_KEY: 'fal-key',
  REPLICATE_API_TOKEN: 'r8_token',
  OPENAI_API_KEY: 'sk-test',
  ELEVENLABS_API_KEY: 'xi-test',
};

describe('the external providers', () => {
  it('can call every model the catalog offers them, once their keys are set', () => {
    const providers = new Map(createRemoteProviders(loadConfig(keys)).map((p) => [p.id, p]));
    const external = MODELS.flatMap((m) => m.offers).filter((o) => o.provider !== 'local');
    expect(external.length).toBeGreaterThan(60);
    for (const offer of external) {
      const provider = providers.get(offer.provider);
      expect(provider, offer.provider).toBeTruthy();
      expect(provider!.unavailableReason(offer.providerModelId), offer.pricingId).toBeNull();
    }
  });

  it('say which variable enables each of them when its key is missing', () => {
    for (const provider of createRemoteProviders(loadConfig({}))) {
      const offer = MODELS.flatMap((m) => m.offers).find((o) => o.provider === provider.id)!;
      const variable = Object.keys(keys).find((k) => k.toLowerCase().startsWith(provider.id.slice(0, 4)));
      expect(provider.unavailableReason(offer.providerModelId)).toContain(variable);
    }
  });
});
