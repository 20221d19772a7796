import { describe, expect, it } from 'vitest';
import { MODELS } from '../../domain/catalog/models.ts';
import type { RunContext } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { createRemoteProvider, type RemoteAdapter } from './remote-provider.ts';

const model = MODELS.find((m) => m.id === 'flux-schnell')!;
const offer = model.offers[0]!;
const context: RunContext = {
  signal: new AbortController().signal,
  progress: () => {},
  readInput: async () => ({ body: Buffer.alloc(0), contentType: 'application/octet-stream' }),
};

function adapterFailingWith(message: string): RemoteAdapter {
  return {
    id: 'fal',
    keyVariable: 'FAL_KEY',
    key: 'secret-key-123',
    supports: () => true,
    submit: async () => {
      throw new ProviderError('provider_auth', message);
    },
    poll: async () => {
      throw new Error('not polled');
    },
    cancel: async () => {},
  };
}

describe('createRemoteProvider', () => {
  it("never lets the server's key reach a failed job's message", async () => {
    const provider = createRemoteProvider(adapterFailingWith('fal refused key secret-key-123 (401)'));
    const error = await provider
      .run({ model, offer, body: { prompt: 'x' } }, context)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('provider_auth');
    expect((error as ProviderError).message).toBe('fal refused key [key] (401)');
  });

  it('says which variable enables a provider without a key', () => {
    const provider = createRemoteProvider({ ...adapterFailingWith('x'), key: undefined });
    expect(provider.unavailableReason(offer.providerModelId)).toBe(
      'Set FAL_KEY on the server to enable fal.',
    );
  });
});
