import { describe, expect, it } from 'vitest';
import type { PipelineStepState } from '../../../../contract/pipeline-graph.ts';
import { layoutSteps, stepCostText } from './pipeline-graph.tsx';

const state = (id: string, needs: string[] = []): PipelineStepState => ({
  id,
  tool: 'image',
  needs,
  job_id: null,
  status: 'pending',
});

describe('pipeline graph layout', () => {
  it('puts each step one column right of the deepest step it waits for, siblings one below another', () => {
    const { placed } = layoutSteps([state('voice'), state('tune'), state('card', ['voice', 'tune'])]);
    const at = Object.fromEntries(placed.map((p) => [p.state.id, p]));
    expect(at.voice!.x).toBe(0);
    expect(at.tune!.x).toBe(0);
    expect(at.tune!.y).toBeGreaterThan(at.voice!.y);
    expect(at.card!.x).toBeGreaterThan(at.voice!.x);
    expect(at.card!.y).toBe(0);
  });

  it('draws a step whose dependency is not among the states (an older run) in the first column', () => {
    const { placed } = layoutSteps([state('b', ['gone'])]);
    expect(placed[0]!.x).toBe(0);
  });
});

describe('what a step costs, on the step', () => {
  it('says a failed step gave its hold back, and what the others cost or hold', () => {
    const step = (fields: Partial<PipelineStepState>) => ({ ...state('s'), ...fields });
    expect(stepCostText(step({ status: 'failed', estimated_cost_cents: 2, charged_cents: 0 }))).toBe(
      'Not charged: hold of 2 credits returned',
    );
    expect(stepCostText(step({ status: 'completed', estimated_cost_cents: 2, charged_cents: 1 }))).toBe(
      'Charged 1 credit',
    );
    expect(stepCostText(step({ status: 'running', estimated_cost_cents: 2, charged_cents: null }))).toBe(
      'Holds 2 credits',
    );
    // A step that could not start made no job: nothing held, nothing to say.
    expect(stepCostText(step({ status: 'failed' }))).toBeNull();
  });
});
