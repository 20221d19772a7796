import type { z } from 'zod';
import type { LineageEdge, LineageGraph, LineageNode } from '../../../../contract/files.ts';

export type Node = z.infer<typeof LineageNode>;
type Edge = z.infer<typeof LineageEdge>;

export const NODE_WIDTH = 208;
export const NODE_HEIGHT = 92;
const COLUMN_GAP = 72;
const ROW_GAP = 20;

export interface PlacedNode {
  node: Node;
  column: number;
  row: number;
  x: number;
  y: number;
}

export interface PlacedEdge {
  edge: Edge;
  /** An SVG path from the right side of `from` to the left side of `to`. */
  path: string;
}

export interface LineageLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/**
 * Lays the graph out in columns by depth, reading left to right as the media flowed: each node sits one
 * column after the furthest node that feeds it (inputs, then the job, then its outputs). Within a
 * column, nodes sit near the rows of what feeds them, so edges cross less. Edges pointing at unknown
 * nodes are dropped; a cycle (which lineage never has) cannot hang the layout.
 */
export function layoutLineage(graph: Pick<LineageGraph, 'nodes' | 'edges'>): LineageLayout {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const edges = graph.edges.filter(
    (edge) => byId.has(edge.from) && byId.has(edge.to) && edge.from !== edge.to,
  );
  const parents = new Map<string, string[]>();
  for (const edge of edges) parents.set(edge.to, [...(parents.get(edge.to) ?? []), edge.from]);

  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const value = Math.max(-1, ...(parents.get(id) ?? []).map(depthOf)) + 1;
    visiting.delete(id);
    depth.set(id, value);
    return value;
  };

  const columns: Node[][] = [];
  for (const node of graph.nodes) {
    const column = depthOf(node.id);
    columns[column] = [...(columns[column] ?? []), node];
  }

  const rowOf = new Map<string, number>();
  const placed: PlacedNode[] = [];
  columns.forEach((members = [], column) => {
    const order = members
      .map((node, index) => {
        const feeding = (parents.get(node.id) ?? [])
          .map((id) => rowOf.get(id))
          .filter((r) => r !== undefined);
        const centre = feeding.length > 0 ? feeding.reduce((a, b) => a + b, 0) / feeding.length : index;
        return { node, centre, index };
      })
      .sort((a, b) => a.centre - b.centre || a.index - b.index);
    order.forEach(({ node }, row) => {
      rowOf.set(node.id, row);
      placed.push({
        node,
        column,
        row,
        x: column * (NODE_WIDTH + COLUMN_GAP),
        y: row * (NODE_HEIGHT + ROW_GAP),
      });
    });
  });

  const at = new Map(placed.map((p) => [p.node.id, p]));
  const placedEdges = edges.map((edge) => {
    const from = at.get(edge.from)!;
    const to = at.get(edge.to)!;
    const x1 = from.x + NODE_WIDTH;
    const y1 = from.y + NODE_HEIGHT / 2;
    const x2 = to.x;
    const y2 = to.y + NODE_HEIGHT / 2;
    const bend = Math.max(24, (x2 - x1) / 2);
    return { edge, path: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}` };
  });

  const tallest = Math.max(0, ...columns.map((members) => members?.length ?? 0));
  return {
    nodes: placed,
    edges: placedEdges,
    width: Math.max(0, columns.length * (NODE_WIDTH + COLUMN_GAP) - COLUMN_GAP),
    height: Math.max(0, tallest * (NODE_HEIGHT + ROW_GAP) - ROW_GAP),
  };
}
