import { describe, expect, it } from 'vitest';
import type { PipelineStepState } from '../../../../contract/pipeline-graph.ts';
import { layoutSteps } from './pipeline-graph.tsx';

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
