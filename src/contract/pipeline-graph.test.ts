import { describe, expect, it } from 'vitest';
import { checkGraph, depthsOf, PIPELINE_DEPTH_MAX, sinksOf } from './pipeline-graph.ts';

const ref = (id: string) => ({ files: [{ url: `{{steps.${id}.output.url}}` }] });

describe('pipeline graph rules', () => {
  it('takes a step’s dependencies from its needs and its references, in any listed order', () => {
    const steps = [
      { id: 'c', needs: ['a'], input: ref('b') },
      { id: 'b', input: ref('a') },
      { id: 'a', input: {} },
    ];
    expect(checkGraph(steps)).toEqual([]);
    expect(Object.fromEntries(depthsOf(steps))).toEqual({ a: 0, b: 1, c: 2 });
    expect(sinksOf(steps).map((s) => s.id)).toEqual(['c']);
  });

  it('names an unknown step at the field that refers to it', () => {
    expect(checkGraph([{ id: 'a', needs: ['ghost'], input: {} }])).toEqual([
      { index: 0, field: 'needs', message: 'refers to ghost, which is not a step' },
    ]);
    expect(checkGraph([{ id: 'a', input: ref('ghost') }])[0]?.field).toBe('input');
  });

  it('refuses cycles, the shortest being a step that needs itself', () => {
    expect(checkGraph([{ id: 'a', input: ref('a') }])[0]?.message).toBe('cycle: a → a');
    const three = [
      { id: 'a', needs: ['c'], input: {} },
      { id: 'b', needs: ['a'], input: {} },
      { id: 'c', needs: ['b'], input: {} },
    ];
    expect(checkGraph(three)).toEqual([{ index: 0, field: 'needs', message: 'cycle: a → c → b → a' }]);
  });

  it(`allows a chain of ${PIPELINE_DEPTH_MAX} and refuses ${PIPELINE_DEPTH_MAX + 1}, and width is not depth`, () => {
    const chain = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `s${i}`, needs: i ? [`s${i - 1}`] : [], input: {} }));
    expect(checkGraph(chain(PIPELINE_DEPTH_MAX))).toEqual([]);
    expect(checkGraph(chain(PIPELINE_DEPTH_MAX + 1))).toEqual([
      expect.objectContaining({ index: PIPELINE_DEPTH_MAX, field: 'needs' }),
    ]);
    const wide = Array.from({ length: 10 }, (_, i) => ({ id: `w${i}`, input: {} }));
    expect(checkGraph(wide)).toEqual([]);
  });
});
