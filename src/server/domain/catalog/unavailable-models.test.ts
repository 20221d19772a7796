import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createLocalEngines } from '../../providers/local/engines.ts';
import { createLocalProvider } from '../../providers/local/local-provider.ts';
import { createRemoteProviders } from '../../providers/remote/remote-providers.ts';
import type { Provider } from '../jobs/provider.ts';
import { providerAvailability } from './availability.ts';
import { Catalog } from './catalog.ts';
import { MODELS } from './models.ts';
import { unavailableModelLines } from './unavailable-models.ts';

const KEYS = { FAL_KEY: 'f', REPLICATE_API_TOKEN: 'r', OPENAI_API_KEY: 'o', ELEVENLABS_API_KEY: 'e' };

/** The catalog as a server started with `env` sees it: the real local and external providers. */
function catalogFor(env: Record<string, string>): Catalog {
  const config = loadConfig(env);
  const local = createLocalProvider(createLocalEngines(config));
  const providers = new Map<string, Provider>(
    [local, ...createRemoteProviders(config)].map((p) => [p.id, p]),
  );
  return new Catalog(MODELS, providerAvailability(providers, env));
}

describe('unavailableModelLines', () => {
  it('names the models that cannot run without PocketSphinx or provider keys, one line per reason', () => {
    const lines = unavailableModelLines(catalogFor({ PATH: '' }));
    expect(lines[0]).toBe(
      '1 model cannot run here: local-pocketsphinx — Install PocketSphinx to enable it: ' +
        'apt-get install pocketsphinx pocketsphinx-en-us.',
    );
    const falOnly = lines.find((line) => line.endsWith('— Set FAL_KEY on the server to enable fal.'))!;
    expect(falOnly).toMatch(/^\d+ models cannot run here: /);
    expect(falOnly).toContain('flux-1.1-pro-ultra');
    const falOrReplicate = lines.find((line) => line.includes('any one of:') && line.includes('FAL_KEY'))!;
    expect(falOrReplicate).toContain('flux-dev');
    expect(falOrReplicate).toContain('REPLICATE_API_TOKEN');

    // Every model that cannot run is named once; the local engines that need nothing are not.
    const named = lines.flatMap((line) => line.split(' run here: ')[1]!.split(' — ')[0]!.split(', '));
    expect(new Set(named).size).toBe(named.length);
    expect(named).not.toContain('local-sketch');
    expect(new Set(lines.map((line) => line.split(' — ')[1])).size).toBe(lines.length);
  });

  it('leaves out what the keys enable once they are set', () => {
    const lines = unavailableModelLines(catalogFor({ PATH: '', ...KEYS }));
    expect(lines.some((line) => line.includes('FAL_KEY'))).toBe(false);
    expect(lines.some((line) => line.includes('local-pocketsphinx'))).toBe(true);
  });

  it('says nothing when every model can run', () => {
    const everything = new Catalog(MODELS, () => ({ available: true, reason: null }));
    expect(unavailableModelLines(everything)).toEqual([]);
  });
});
