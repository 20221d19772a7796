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

/**
 * `across`: depth runs left to right (inputs, the job, its outputs), the natural reading where there is
 * room. `down`: depth runs top to bottom, for a frame too narrow for the columns (a phone, a long chain),
 * so no node ends up beyond the frame's edge.
 */
export type LineageDirection = 'across' | 'down';

export interface LineageLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
  direction: LineageDirection;
}

/**
 * Lays the graph out in columns by depth, reading left to right as the media flowed: each node sits one
 * column after the furthest node that feeds it (inputs, then the job, then its outputs). Within a
 * column, nodes sit near the rows of what feeds them, so edges cross less. Edges pointing at unknown
 * nodes are dropped; a cycle (which lineage never has) cannot hang the layout.
 */
export function layoutLineage(
  graph: Pick<LineageGraph, 'nodes' | 'edges'>,
  direction: LineageDirection = 'across',
): LineageLayout {
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
        ...(direction === 'across'
          ? { x: column * (NODE_WIDTH + COLUMN_GAP), y: row * (NODE_HEIGHT + ROW_GAP) }
          : { x: row * (NODE_WIDTH + ROW_GAP), y: column * (NODE_HEIGHT + COLUMN_GAP) }),
      });
    });
  });

  const at = new Map(placed.map((p) => [p.node.id, p]));
  const placedEdges = edges.map((edge) => ({
    edge,
    path: edgePath(at.get(edge.from)!, at.get(edge.to)!, direction),
  }));

  const depthSpan = columns.length;
  const breadth = Math.max(0, ...columns.map((members) => members?.length ?? 0));
  const across = {
    width: Math.max(0, depthSpan * (NODE_WIDTH + COLUMN_GAP) - COLUMN_GAP),
    height: Math.max(0, breadth * (NODE_HEIGHT + ROW_GAP) - ROW_GAP),
  };
  const down = {
    width: Math.max(0, breadth * (NODE_WIDTH + ROW_GAP) - ROW_GAP),
    height: Math.max(0, depthSpan * (NODE_HEIGHT + COLUMN_GAP) - COLUMN_GAP),
  };
  return { nodes: placed, edges: placedEdges, direction, ...(direction === 'across' ? across : down) };
}

/** A curve from the side of `from` that faces `to` (right, or bottom when laid out downwards). */
function edgePath(from: PlacedNode, to: PlacedNode, direction: LineageDirection): string {
  if (direction === 'across') {
    const x1 = from.x + NODE_WIDTH;
    const y1 = from.y + NODE_HEIGHT / 2;
    const x2 = to.x;
    const y2 = to.y + NODE_HEIGHT / 2;
    const bend = Math.max(24, (x2 - x1) / 2);
    return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
  }
  const x1 = from.x + NODE_WIDTH / 2;
  const y1 = from.y + NODE_HEIGHT;
  const x2 = to.x + NODE_WIDTH / 2;
  const y2 = to.y;
  const bend = Math.max(16, (y2 - y1) / 2);
  return `M ${x1} ${y1} C ${x1} ${y1 + bend}, ${x2} ${y2 - bend}, ${x2} ${y2}`;
}

/**
 * The direction that fits a frame `available` pixels wide: across when the columns fit, else down (which
 * is as wide as the broadest depth only). Unmeasured (0), across.
 */
export function directionToFit(
  graph: Pick<LineageGraph, 'nodes' | 'edges'>,
  available: number,
): LineageDirection {
  if (available <= 0) return 'across';
  return layoutLineage(graph, 'across').width <= available ? 'across' : 'down';
}
