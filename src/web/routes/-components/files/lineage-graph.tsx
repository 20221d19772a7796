import { Link } from '@tanstack/react-router';
import { useMemo, useRef } from 'react';
import type { LineageGraph } from '../../../../contract/files.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { StatusBadge } from '../../../components/job-status-badge.tsx';
import { useElementWidth } from '../../../components/use-element-width.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { FileThumb } from './file-thumb.tsx';
import { directionToFit, layoutLineage, NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from './lineage-layout.ts';
import { useRerunFromJob } from './use-rerun-from-job.ts';

/** A file the lineage still names after it was deleted (the server marks it; the record stays honest). */
function isDeleted(node: PlacedNode['node']): boolean {
  return node.kind === 'file' && node.deleted;
}

/**
 * The lineage as a graph read left to right: input files, the jobs that used them, the files they
 * made; top to bottom when the frame is too narrow for the columns, so every node stays whole inside it.
 * Edges are drawn in SVG; the nodes are ordinary links and buttons over it, in reading order (depth by
 * depth), so the graph can be walked with Tab.
 */
export function LineageView({ graph }: { graph: LineageGraph }) {
  const frameRef = useRef<HTMLDivElement>(null);
  // Measured on the outer column, always there; the frame's border and padding (1 + 16 px a side) are no room for nodes.
  const room = Math.max(0, useElementWidth(frameRef) - 34);
  const direction = directionToFit(graph, room);
  const layout = useMemo(() => layoutLineage(graph, direction), [graph, direction]);
  const rerun = useRerunFromJob();
  const single = graph.nodes.length <= 1;
  return (
    <div ref={frameRef} className="flex flex-col gap-3">
      {rerun.error !== null && (
        <Alert tone="error" title="The job could not be opened in the playground">
          {rerun.error instanceof Error ? rerun.error.message : String(rerun.error)}
        </Alert>
      )}
      {single ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Nothing made this file and nothing was made from it yet. Use it in the playground and what you make
          appears here.
        </p>
      ) : (
        <div
          data-direction={layout.direction}
          className="relative overflow-auto rounded-xl border border-zinc-200 bg-zinc-50 p-4 dark:border-zinc-800 dark:bg-zinc-950/40"
        >
          <div className="relative" style={{ width: layout.width, height: layout.height }}>
            <svg
              aria-hidden="true"
              className="absolute inset-0 overflow-visible text-zinc-400 dark:text-zinc-600"
              width={layout.width}
              height={layout.height}
            >
              <defs>
                <marker
                  id="lineage-arrow"
                  viewBox="0 0 8 8"
                  refX="8"
                  refY="4"
                  markerWidth="8"
                  markerHeight="8"
                  orient="auto"
                >
                  <path d="M0 0 L8 4 L0 8 z" fill="currentColor" />
                </marker>
              </defs>
              {layout.edges.map(({ edge, path }) => (
                <path
                  key={`${edge.from}-${edge.to}`}
                  d={path}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth={1.5}
                  markerEnd="url(#lineage-arrow)"
                />
              ))}
            </svg>
            <ol aria-label="Lineage, from inputs to outputs">
              {layout.nodes.map((placed) => (
                <li
                  key={placed.node.id}
                  className="absolute"
                  style={{ left: placed.x, top: placed.y, width: NODE_WIDTH, height: NODE_HEIGHT }}
                >
                  {placed.node.kind === 'file' ? (
                    <FileNode placed={placed} root={placed.node.id === graph.root} />
                  ) : (
                    <JobNode
                      placed={placed}
                      pending={rerun.pending === placed.node.id}
                      onRerun={rerun.start}
                    />
                  )}
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
      {graph.truncated && (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          The lineage goes further than shown here: open a file at the edge to follow it on.
        </p>
      )}
    </div>
  );
}

const BOX =
  'flex size-full items-center gap-2.5 rounded-lg border bg-white p-2 text-left shadow-sm dark:bg-zinc-900';

function FileNode({ placed, root }: { placed: PlacedNode; root: boolean }) {
  if (placed.node.kind !== 'file') return null;
  const { file } = placed.node;
  const deleted = isDeleted(placed.node);
  const kind = deleted ? 'Deleted file' : root ? 'This file' : 'File';
  const body = (
    <>
      <FileThumb file={file} className="size-12 shrink-0 rounded" />
      <span className="min-w-0">
        <span className="block text-[11px] font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
          {kind}
        </span>{' '}
        <span
          title={file.name}
          className={cx('block truncate text-sm font-medium', deleted && 'line-through')}
        >
          {file.name}
        </span>
      </span>
    </>
  );
  if (deleted) {
    return (
      <div className={cx(BOX, 'border-dashed border-zinc-300 opacity-70 dark:border-zinc-700')}>{body}</div>
    );
  }
  return (
    <Link
      to="/files/$fileId"
      params={{ fileId: file.id }}
      aria-current={root ? 'page' : undefined}
      // The visible words, in order (label-content-name-mismatch: people steering by voice say them).
      aria-label={`${kind} ${file.name}`}
      className={cx(
        BOX,
        'hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:border-zinc-500',
        root ? 'border-indigo-500 ring-2 ring-indigo-500/30' : 'border-zinc-200 dark:border-zinc-700',
      )}
    >
      {body}
    </Link>
  );
}

function JobNode({
  placed,
  pending,
  onRerun,
}: {
  placed: PlacedNode;
  pending: boolean;
  onRerun: (jobId: string) => void;
}) {
  if (placed.node.kind !== 'job') return null;
  const { job } = placed.node;
  return (
    <section
      aria-label={`Job: ${toolLabel(job.tool)}, ${job.model}`}
      className={cx(
        BOX,
        'flex-col items-stretch justify-between gap-0.5 border-zinc-300 dark:border-zinc-700',
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <Link
          to="/jobs/$jobId"
          params={{ jobId: job.id }}
          className="min-w-0 truncate text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
          aria-label={`${toolLabel(job.tool)} job ${job.id} (${job.model})`}
        >
          {toolLabel(job.tool)} job
        </Link>
        <StatusBadge status={job.status} />
      </div>
      <span
        className="block shrink-0 truncate font-mono text-xs leading-4 text-zinc-600 dark:text-zinc-400"
        title={job.model}
      >
        {job.model}
      </span>
      <Button
        variant="secondary"
        size="sm"
        className="h-6 self-start px-2 text-xs"
        pending={pending}
        onClick={() => onRerun(job.id)}
        aria-label={`Re-run from here: ${toolLabel(job.tool)}, ${job.model}`}
      >
        Re-run from here
      </Button>
    </section>
  );
}
