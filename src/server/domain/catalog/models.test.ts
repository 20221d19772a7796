import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_KEYS } from '../../../contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import { modelLifecycle, offerLifecycle } from './lifecycle.ts';
import { MODELS } from './models.ts';
import { standaloneJsonSchema } from './tool-schema.ts';

const byId = new Map(MODELS.map((m) => [m.id, m]));
const offers = MODELS.flatMap((m) => m.offers.map((o) => ({ model: m, offer: o })));

describe('the model catalog', () => {
  it('holds about 80 models with unique ids, across the local engines and four external providers', () => {
    expect(MODELS.length).toBeGreaterThanOrEqual(70);
    expect(byId.size).toBe(MODELS.length);
    const providers = new Set(offers.map(({ offer }) => offer.provider));
    expect([...providers].sort()).toEqual(['elevenlabs', 'fal', 'local', 'openai', 'replicate']);
  });

  it('gives every offer a unique pricing id, a finite price per unit and a typical amount', () => {
    const pricingIds = offers.map(({ offer }) => offer.pricingId);
    expect(new Set(pricingIds).size).toBe(pricingIds.length);
    for (const { model, offer } of offers) {
      expect(offer.pricingId, model.id).toMatch(
        /^[a-z]+:[a-zA-Z0-9:._-]+:(image|second|thousand_characters|minute|job)$/,
      );
      expect(Number.isFinite(offer.unitPrice) && offer.unitPrice >= 0, model.id).toBe(true);
      expect(offer.typicalUnits, model.id).toBeGreaterThan(0);
      if (model.id !== 'pipeline') expect(offer.unitPrice, model.id).toBeGreaterThan(0);
    }
  });

  it('has a model that runs offline for every tool', () => {
    for (const tool of TOOL_KEYS) {
      expect(
        MODELS.some((m) => m.tool === tool && m.offers.some((o) => o.provider === 'local')),
        tool,
      ).toBe(true);
    }
  });

  it('publishes provider_options schemas that are strict objects and compile to validators', () => {
    for (const { model, offer } of offers) {
      expect(offer.optionsSchema.type, model.id).toBe('object');
      expect(offer.optionsSchema.additionalProperties, model.id).toBe(false);
      const validator = z.fromJSONSchema(offer.optionsSchema as never);
      expect(validator.safeParse({}).success, `${model.id} accepts no options`).toBe(
        !(offer.optionsSchema.required as string[] | undefined)?.length,
      );
      expect(validator.safeParse({ not_a_field: 1 }).success, model.id).toBe(false);
    }
  });

  it("narrows only fields of its tool's request, with schemas that compile", () => {
    for (const model of MODELS) {
      const properties = standaloneJsonSchema(TOOL_REQUEST_BODIES[model.tool]).properties as Record<
        string,
        unknown
      >;
      for (const [field, schema] of Object.entries(model.fields ?? {})) {
        expect(Object.keys(properties), `${model.id}.${field}`).toContain(field);
        expect(() => z.fromJSONSchema(schema as never), `${model.id}.${field}`).not.toThrow();
      }
    }
  });

  it('links each image-to-video variant within its own family, to a model that needs a start frame', () => {
    const linked = MODELS.filter((m) => m.imageToVideoVariant);
    expect(linked.length).toBeGreaterThanOrEqual(5);
    for (const model of linked) {
      const variant = byId.get(model.imageToVideoVariant!);
      expect(variant?.tool, model.id).toBe('video');
      expect(variant!.id.startsWith(model.id), `${variant!.id} is of the ${model.id} family`).toBe(true);
      expect(variant!.fields?.files?.minItems, variant!.id).toBe(1);
      const providers = (m: typeof model) => new Set(m.offers.map((o) => o.provider));
      for (const p of providers(variant!))
        expect(providers(model).has(p), `${variant!.id} on ${p}`).toBe(true);
    }
  });

  it('points every deprecation and retirement at a live model of the same tool, and keeps live families live', () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const model of MODELS) {
      const lifecycles = [modelLifecycle(model, today), ...model.offers.map((o) => offerLifecycle(o, today))];
      for (const lifecycle of lifecycles) {
        if (lifecycle.status === 'active' || !lifecycle.replacement) continue;
        const replacement = byId.get(lifecycle.replacement);
        expect(replacement?.tool, `${model.id} -> ${lifecycle.replacement}`).toBe(model.tool);
        expect(modelLifecycle(replacement!, today).status, lifecycle.replacement).not.toBe('retired');
      }
      if (model.imageToVideoVariant && modelLifecycle(model, today).status !== 'retired') {
        expect(modelLifecycle(byId.get(model.imageToVideoVariant)!, today).status, model.id).not.toBe(
          'retired',
        );
      }
    }
  });

  it('says the pipeline runs independent steps together, not one after another (as the runner does)', () => {
    const pipeline = byId.get('pipeline')!;
    expect(pipeline.description).not.toMatch(/in order|one after another|in sequence/);
    expect(pipeline.description).toMatch(/at the same time/);
  });

  it('leaves out of an upscaler’s published schema the fields it makes no use of (no aspect ratio)', () => {
    const upscalers = MODELS.filter(
      (m) => m.tool === 'image' && /upscal|esrgan/i.test(`${m.id} ${m.description}`),
    );
    expect(upscalers.map((m) => m.id).sort()).toEqual(['clarity-upscaler', 'local-upscale', 'real-esrgan']);
    for (const upscaler of upscalers) expect(upscaler.ignores, upscaler.id).toContain('aspect_ratio');
    for (const model of MODELS) {
      const body = standaloneJsonSchema(TOOL_REQUEST_BODIES[model.tool as keyof typeof TOOL_REQUEST_BODIES]);
      for (const field of model.ignores ?? [])
        expect(body.properties, `${model.id}: ${field}`).toHaveProperty(field);
    }
  });

  it('names local engines for what they are', () => {
    for (const model of MODELS.filter((m) => m.offers.some((o) => o.provider === 'local'))) {
      expect(
        model.offers.every((o) => o.provider === 'local'),
        model.id,
      ).toBe(true);
      expect(model.id, 'local models never borrow a neural model name').toMatch(
        /^(local-|ffmpeg$|pipeline$|video-analyze$)/,
      );
    }
  });
});
