import { describe, expect, it } from 'vitest';
import {
  describeField,
  freshStepId,
  newStep,
  outputReference,
  pipelineBody,
  removeStep,
  renameStep,
  stepsFromInput,
} from './builder-steps.ts';

describe('pipeline builder steps', () => {
  it('names new steps after the ones there, never twice', () => {
    const first = newStep([]);
    expect(first.id).toBe('step1');
    const renamed = { ...first, id: 'step2' };
    expect(freshStepId([renamed])).toBe('step3');
  });

  it('keeps waits following a renamed step and drops those of a removed one', () => {
    const a = { ...newStep([]), id: 'a' };
    const b = { ...newStep([a]), id: 'b', needs: ['a'] };
    const renamed = renameStep([a, b], a.key, 'sketch');
    expect(renamed[1]!.needs).toEqual(['sketch']);
    expect(removeStep(renamed, a.key)).toEqual([{ ...b, needs: [] }]);
  });

  it('sends the model first, needs only when there are some, and reads a finished run back', () => {
    const a = { ...newStep([], 'image'), id: 'a', model: 'local-sketch' };
    const b = { ...newStep([a], 'image'), id: 'b', needs: ['a'] };
    const body = pipelineBody(
      [a, b],
      new Map([
        [a.key, { prompt: 'kite' }],
        [b.key, { files: [{ url: outputReference('a') }] }],
      ]),
    );
    expect(body).toEqual({
      steps: [
        { id: 'a', tool: 'image', input: { model: 'local-sketch', prompt: 'kite' } },
        { id: 'b', tool: 'image', needs: ['a'], input: { files: [{ url: '{{steps.a.output.url}}' }] } },
      ],
    });
    const back = stepsFromInput(body);
    expect(back.map((s) => [s.id, s.tool, s.model, s.needs])).toEqual([
      ['a', 'image', 'local-sketch', []],
      ['b', 'image', null, ['a']],
    ]);
    expect(back[0]!.initialInput).toEqual({ model: 'local-sketch', prompt: 'kite' });
  });

  it('tells a refused field as the step and field a person sees', () => {
    const steps = [{ ...newStep([]), id: 'voice' }];
    expect(describeField(steps, 'steps.0.input.text')).toBe('Step voice · text');
    expect(describeField(steps, 'steps.0.needs')).toBe('Step voice · needs');
    expect(describeField(steps, 'steps')).toBe('steps');
  });
});
