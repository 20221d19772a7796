import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MODELS } from '../../domain/catalog/models.ts';
import type { ModelDefinition } from '../../domain/catalog/types.ts';
import { FAL_FAMILIES } from './fal-inputs.ts';
import { type CommonBody, familyIn, unitsFor, unitsOf } from './native-input.ts';
import { REPLICATE_FAMILIES } from './replicate-inputs.ts';
import { falServesModel, falValidationErrors } from './testing/fal-protocol-server.ts';
import { replicateInputRules } from './testing/replicate-protocol-server.ts';

/*
 * The catalog's offers against the request mappings: what each model is sent and billed for, as the
 * providers document it (sources cited next to each mapping). Guards the findings of #26.
 */

const model = (id: string): ModelDefinition => {
  const found = MODELS.find((m) => m.id === id);
  if (!found) throw new Error(`no model ${id}`);
  return found;
};
const offerOf = (id: string, provider: string) => {
  const found = model(id).offers.find((o) => o.provider === provider);
  if (!found) throw new Error(`${id} has no ${provider} offer`);
  return found;
};
const familyOf = (id: string, provider: 'fal' | 'replicate') => {
  const offer = offerOf(id, provider);
  const family = familyIn(provider === 'fal' ? FAL_FAMILIES : REPLICATE_FAMILIES, offer.providerModelId);
  if (!family) throw new Error(`${offer.providerModelId} has no request mapping`);
  return { offer, family };
};
const optionsOf = (id: string, provider: string) =>
  z.fromJSONSchema(offerOf(id, provider).optionsSchema as never);

describe('catalog offers and their request mappings', () => {
  it('maps every fal and Replicate offer to a request family', () => {
    for (const m of MODELS) {
      for (const o of m.offers) {
        if (o.provider !== 'fal' && o.provider !== 'replicate') continue;
        const table = o.provider === 'fal' ? FAL_FAMILIES : REPLICATE_FAMILIES;
        expect(familyIn(table, o.providerModelId), `${m.id} on ${o.provider}`).toBeDefined();
      }
    }
  });

  it("sends Ray 2's duration on Replicate, so a 9 s request is made and billed as 9 s", () => {
    const { offer, family } = familyOf('luma-ray-2', 'replicate');
    expect(offer.providerModelId).toBe('luma/ray-2-720p');
    const sent = family.fields({ prompt: 'waves', duration: 9, aspect_ratio: '21:9' });
    expect(sent).toEqual({ prompt: 'waves', duration: 9, aspect_ratio: '21:9' });
    expect(family.seconds?.(sent)).toBe(9);
  });

  it('does not offer Ray 2 a 1:1 frame that fal would turn into 4:3', () => {
    const ratios = model('luma-ray-2').fields?.aspect_ratio?.enum as string[];
    expect(ratios).not.toContain('1:1');
    const { family } = familyOf('luma-ray-2', 'fal');
    for (const ratio of ratios) expect(family.fields({ aspect_ratio: ratio }).aspect_ratio).toBe(ratio);
  });

  it('sends Veo 3.1 durations as fal and Replicate document them (4, 6 or 8 s)', () => {
    const fal = familyOf('veo-3.1', 'fal').family;
    expect(fal.fields({ prompt: 'x', duration: 6, aspect_ratio: '9:16' })).toEqual({
      prompt: 'x',
      duration: '6s',
      aspect_ratio: '9:16',
    });
    const replicate = familyOf('veo-3.1', 'replicate').family;
    const sent = replicate.fields({ prompt: 'x', duration: 5 });
    expect(sent.duration).toBe(6);
    expect(replicate.seconds?.({ prompt: 'x' })).toBe(8);
  });

  it("takes Hailuo 02's resolution as fal spells it and the clarity upscaler's upscale_factor", () => {
    const hailuo = optionsOf('hailuo-02', 'fal');
    expect(hailuo.safeParse({ resolution: '768P' }).success).toBe(true);
    expect(hailuo.safeParse({ resolution: '768p' }).success).toBe(false);
    const clarity = optionsOf('clarity-upscaler', 'fal');
    expect(clarity.safeParse({ upscale_factor: 4 }).success).toBe(true);
    expect(clarity.safeParse({ scale: 4 }).success).toBe(false);
  });

  it('sends MiniMax Music 1.5 the prompt as style and provider lyrics as lyrics, billed per generation', () => {
    const { offer, family } = familyOf('minimax-music-1.5', 'fal');
    expect(offer.unit).toBe('job');
    expect(model('minimax-music-1.5').fields?.prompt).toMatchObject({ minLength: 10, maxLength: 300 });
    const body: CommonBody = { prompt: 'calm piano ballad', duration: 200 };
    expect(family.fields(body)).toMatchObject({ lyrics_prompt: 'calm piano ballad' });
    expect(optionsOf('minimax-music-1.5', 'fal').safeParse({ prompt: '[verse] la la la la' }).success).toBe(
      true,
    );
    const units = unitsOf(family, { body, sent: family.fields(body), typicalUnits: 1 }, offer.unit);
    expect(unitsFor(offer.unit, units)).toBe(1);
  });

  it("offers on Replicate no option the model's API page does not list", () => {
    const undocumented: string[] = [];
    for (const m of MODELS) {
      for (const o of m.offers) {
        if (o.provider !== 'replicate') continue;
        const rules = replicateInputRules(o.providerModelId);
        if (!rules.closed) continue;
        const offered = Object.keys((o.optionsSchema as { properties?: object }).properties ?? {});
        for (const name of offered) {
          if (!rules.fields.includes(name)) undocumented.push(`${m.id}: ${name}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('sends every Replicate model, at each duration the catalog allows, inputs its page accepts', () => {
    const refused: string[] = [];
    for (const m of MODELS) {
      for (const o of m.offers) {
        if (o.provider !== 'replicate') continue;
        const family = familyIn(REPLICATE_FAMILIES, o.providerModelId);
        const duration = m.fields?.duration;
        const seconds: unknown[] = (duration?.enum as unknown[] | undefined) ?? [
          duration?.minimum,
          duration?.maximum,
        ];
        for (const d of seconds.filter((v): v is number => typeof v === 'number')) {
          const body: CommonBody = { prompt: 'a calm sea', text: 'hello', duration: d };
          const errors = replicateInputRules(o.providerModelId).errors(family?.fields(body) ?? {});
          for (const e of errors) refused.push(`${m.id} at ${d} s: ${e.field} ${e.description}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it("keeps Wan 2.2 fast on Replicate within its page's 81..100 frames", () => {
    const { family } = familyOf('wan-2.2', 'replicate');
    const rules = replicateInputRules('wan-video/wan-2.2-t2v-fast');
    for (const duration of [1, 5, 6.25, 7, 30]) {
      const sent = family.fields({ prompt: 'x', duration });
      expect(sent.num_frames).toBeLessThanOrEqual(100);
      expect(rules.errors(sent)).toEqual([]);
    }
    expect(rules.errors({ prompt: 'x', num_frames: 121 })).toEqual([
      expect.objectContaining({ field: 'num_frames', type: 'number_lte' }),
    ]);
  });

  it('offers Kling 2.1 on Replicate only what its page lists (no seed, prompt_optimizer or resolution)', () => {
    const options = optionsOf('kling-2.1-i2v', 'replicate');
    expect(options.safeParse({ negative_prompt: 'blur' }).success).toBe(true);
    for (const name of ['seed', 'prompt_optimizer', 'resolution']) {
      expect(options.safeParse({ [name]: name === 'resolution' ? '720p' : 1 }).success, name).toBe(false);
    }
  });

  it('routes only to fal endpoints fal serves, sent inputs their schemas accept at each duration', () => {
    const problems: string[] = [];
    for (const m of MODELS) {
      for (const o of m.offers) {
        if (o.provider !== 'fal' || o.lifecycle?.status === 'retired') continue;
        if (!falServesModel(o.providerModelId)) {
          problems.push(`${m.id}: ${o.providerModelId} unknown`);
          continue;
        }
        const family = familyIn(FAL_FAMILIES, o.providerModelId);
        const duration = m.fields?.duration;
        const seconds: unknown[] = (duration?.enum as unknown[] | undefined) ?? [duration?.maximum ?? 5];
        for (const d of seconds.filter((v): v is number => typeof v === 'number')) {
          const sent = {
            ...family?.fields({ prompt: 'a calm sea', text: 'hello', duration: d }),
            ...Object.fromEntries((family?.files ?? []).map((f) => [f.field, 'https://example.com/in'])),
          };
          for (const e of falValidationErrors(o.providerModelId, sent))
            problems.push(`${m.id} at ${d} s: ${e.loc.join('.')} ${e.msg}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
