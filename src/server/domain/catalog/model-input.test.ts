import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { checkModelInput } from './model-input.ts';
import { MODELS } from './models.ts';

const modelOf = (id: string) => MODELS.find((m) => m.id === id)!;

function fieldsOf(call: () => void): string[] {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    return ((error as AppError).details as { fields: Array<{ field: string }> }).fields.map((f) => f.field);
  }
  throw new Error('expected a 422');
}

describe('checkModelInput', () => {
  it("accepts a request within the model's limits and its providers' documented options", () => {
    expect(() =>
      checkModelInput(modelOf('kling-2.1-master'), {
        prompt: 'a fox',
        duration: 10,
        aspect_ratio: '9:16',
        provider_options: { fal: { negative_prompt: 'blur', cfg_scale: 0.5 } },
      }),
    ).not.toThrow();
    expect(() =>
      checkModelInput(modelOf('local-sketch'), { provider_options: { local: { seed: 7 } } }),
    ).not.toThrow();
  });

  it('names every field outside the model limits', () => {
    const fields = fieldsOf(() =>
      checkModelInput(modelOf('kling-2.1-master'), { prompt: 'a fox', duration: 7, aspect_ratio: '4:3' }),
    );
    expect(fields).toEqual(['duration', 'aspect_ratio']);
  });

  it('refuses unknown, mistyped and out-of-range provider options, and providers the model does not have', () => {
    const fields = fieldsOf(() =>
      checkModelInput(modelOf('flux-schnell'), {
        prompt: 'x',
        provider_options: {
          fal: { num_inference_steps: 40, typo_field: true },
          openai: { quality: 'high' },
        },
      }),
    );
    expect(fields).toContain('provider_options.fal.num_inference_steps');
    expect(fields).toContain('provider_options.fal');
    expect(fields).toContain('provider_options.openai');
  });

  it('requires the inputs an edit, an upscale or an image-to-video variant works on', () => {
    expect(fieldsOf(() => checkModelInput(modelOf('flux-kontext-pro'), { prompt: 'x', files: [] }))).toEqual([
      'files',
    ]);
    expect(fieldsOf(() => checkModelInput(modelOf('local-upscale'), { prompt: 'x' }))).toEqual(['files']);
    expect(
      fieldsOf(() =>
        checkModelInput(modelOf('local-audio-replace'), { files: [{ url: 'https://example.com/a.mp4' }] }),
      ),
    ).toEqual(['files']);
  });
});
