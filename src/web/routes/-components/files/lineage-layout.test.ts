import { describe, expect, it } from 'vitest';
import type { LineageGraph } from '../../../../contract/files.ts';
import { fileRecord } from '../../../uploads/file-fixture.ts';
import { directionToFit, layoutLineage, NODE_HEIGHT, NODE_WIDTH } from './lineage-layout.ts';

const file = (id: string) => ({ kind: 'file' as const, id, file: fileRecord({ id }), deleted: false });
const job = (id: string) => ({
  kind: 'job' as const,
  id,
  job: {
    id,
    tool: 'image' as const,
    model: 'local-upscale',
    status: 'completed' as const,
    created_at: '2026-11-24T10:00:00.000Z',
    completed_at: '2026-11-24T10:00:01.000Z',
  },
});
const input = (from: string, to: string) => ({ from, to, relation: 'input' as const });
const output = (from: string, to: string) => ({ from, to, relation: 'output' as const });

function columnsOf(graph: Pick<LineageGraph, 'nodes' | 'edges'>): Record<string, number> {
  return Object.fromEntries(layoutLineage(graph).nodes.map((n) => [n.node.id, n.column]));
}

describe('layoutLineage', () => {
  it('puts a three-step chain in columns by depth, whatever order the nodes come in', () => {
    const graph = {
      nodes: [file('file_c'), job('job_2'), file('file_b'), job('job_1'), file('file_a')],
      edges: [
        input('file_a', 'job_1'),
        output('job_1', 'file_b'),
        input('file_b', 'job_2'),
        output('job_2', 'file_c'),
      ],
    };
    expect(columnsOf(graph)).toEqual({ file_a: 0, job_1: 1, file_b: 2, job_2: 3, file_c: 4 });
    const layout = layoutLineage(graph);
    expect(layout.width).toBe(5 * NODE_WIDTH + 4 * 72);
    expect(layout.edges).toHaveLength(4);
    // Every edge starts at the right side of its source and ends at the left side of its target.
    const at = new Map(layout.nodes.map((n) => [n.node.id, n]));
    for (const { edge, path } of layout.edges) {
      expect(path.startsWith(`M ${at.get(edge.from)!.x + NODE_WIDTH} `)).toBe(true);
      expect(path).toMatch(new RegExp(` ${at.get(edge.to)!.x} \\d+(\\.\\d+)?$`));
    }
  });

  it('places a job after the furthest of its inputs, and siblings in rows near what feeds them', () => {
    const graph = {
      nodes: [file('file_a'), file('file_x'), job('job_1'), file('file_b'), job('job_2'), file('file_y')],
      edges: [
        input('file_a', 'job_1'),
        output('job_1', 'file_b'),
        // job_2 takes an upload and job_1's output: it sits after file_b, not after file_x.
        input('file_x', 'job_2'),
        input('file_b', 'job_2'),
        output('job_2', 'file_y'),
      ],
    };
    const columns = columnsOf(graph);
    expect(columns.job_2).toBe(3);
    expect(columns.file_x).toBe(0);
    const rows = Object.fromEntries(layoutLineage(graph).nodes.map((n) => [n.node.id, n.row]));
    expect([rows.file_a, rows.file_x]).toEqual([0, 1]);
  });

  it('drops edges to unknown nodes and survives a cycle', () => {
    const graph = {
      nodes: [file('file_a'), job('job_1')],
      edges: [input('file_a', 'job_1'), output('job_1', 'file_a'), output('job_1', 'file_gone')],
    };
    const layout = layoutLineage(graph);
    expect(layout.nodes).toHaveLength(2);
    expect(layout.edges.map((e) => e.edge.to)).toEqual(['job_1', 'file_a']);
  });

  it('lays out a lone file as one node', () => {
    const layout = layoutLineage({ nodes: [file('file_a')], edges: [] });
    expect(layout.nodes.map((n) => [n.column, n.row, n.x, n.y])).toEqual([[0, 0, 0, 0]]);
    expect(layout.width).toBe(NODE_WIDTH);
  });

  it('runs top to bottom when the columns do not fit the frame, as wide as one node per depth', () => {
    const chain = {
      nodes: [file('file_a'), job('job_1'), file('file_b'), job('job_2'), file('file_c')],
      edges: [
        input('file_a', 'job_1'),
        output('job_1', 'file_b'),
        input('file_b', 'job_2'),
        output('job_2', 'file_c'),
      ],
    };
    const across = layoutLineage(chain);
    expect(directionToFit(chain, across.width)).toBe('across');
    expect(directionToFit(chain, across.width - 1)).toBe('down');
    expect(directionToFit(chain, 0)).toBe('across');
    const down = layoutLineage(chain, 'down');
    expect(down.width).toBe(NODE_WIDTH);
    expect(down.nodes.every((n) => n.x === 0 && n.x + NODE_WIDTH <= down.width)).toBe(true);
    expect(down.nodes.map((n) => n.y)).toEqual([...down.nodes.map((n) => n.y)].sort((a, b) => a - b));
    expect(Math.max(...down.nodes.map((n) => n.y + NODE_HEIGHT))).toBe(down.height);
    // Edges leave a node's bottom and enter the next one's top.
    expect(down.edges[0]!.path).toMatch(new RegExp(`^M ${NODE_WIDTH / 2} ${NODE_HEIGHT} `));
  });
});
