import { Link } from '@tanstack/react-router';
import { useRef } from 'react';
import type { ToolKey } from '../../../../contract/common.ts';
import { depthsOf, type PipelineStepState } from '../../../../contract/pipeline-graph.ts';
import { StatusBadge } from '../../../components/job-status-badge.tsx';
import { useElementWidth } from '../../../components/use-element-width.ts';
import { formatCredits } from '../../../format/credits.ts';
import { toolLabel } from '../../../format/tool-label.ts';

/* A pipeline run drawn as its DAG: one column per depth, each step a live card, edges from what it waits for. */

const NODE_W = 184;
const NODE_H = 148;
const GAP_X = 40;
const GAP_Y = 20;

interface Placed {
  state: PipelineStepState;
  x: number;
  y: number;
}

/**
 * `across`: a column per depth, read left to right. `down`: a row per depth, for a frame too narrow for
 * the columns (the run panel beside the builder, a phone), so no step ends up beyond the frame's edge.
 */
export type StepsDirection = 'across' | 'down';

/** Columns by depth, rows in the order listed; a pure function so the drawing is the same on every poll. */
export function layoutSteps(
  states: readonly PipelineStepState[],
  direction: StepsDirection = 'across',
): {
  placed: Placed[];
  width: number;
  height: number;
} {
  const known = new Set(states.map((s) => s.id));
  const depths = depthsOf(
    states.map((s) => ({ id: s.id, needs: s.needs.filter((n) => known.has(n)), input: null })),
  );
  const rows = new Map<number, number>();
  const placed = states.map((state) => {
    const column = depths.get(state.id) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    return direction === 'across'
      ? { state, x: column * (NODE_W + GAP_X), y: row * (NODE_H + GAP_Y) }
      : { state, x: row * (NODE_W + GAP_Y), y: column * (NODE_H + GAP_X) };
  });
  const columns = Math.max(1, ...[...rows.keys()].map((c) => c + 1));
  const maxRows = Math.max(1, ...rows.values());
  return direction === 'across'
    ? {
        placed,
        width: columns * NODE_W + (columns - 1) * GAP_X,
        height: maxRows * NODE_H + (maxRows - 1) * GAP_Y,
      }
    : {
        placed,
        width: maxRows * NODE_W + (maxRows - 1) * GAP_Y,
        height: columns * NODE_H + (columns - 1) * GAP_X,
      };
}

/** Across when the columns fit in `available` pixels (or it is not measured yet), else down. */
export function stepsDirectionToFit(states: readonly PipelineStepState[], available: number): StepsDirection {
  if (available <= 0) return 'across';
  return layoutSteps(states, 'across').width <= available ? 'across' : 'down';
}

export function PipelineGraph({ states }: { states: readonly PipelineStepState[] }) {
  const frameRef = useRef<HTMLDivElement>(null);
  // The frame's border and padding (1 + 16 px a side) are no room for steps.
  const direction = stepsDirectionToFit(states, Math.max(0, useElementWidth(frameRef) - 34));
  const { placed, width, height } = layoutSteps(states, direction);
  const at = new Map(placed.map((p) => [p.state.id, p]));
  return (
    <div
      ref={frameRef}
      data-direction={direction}
      className="relative overflow-x-auto rounded-xl border border-zinc-200 bg-zinc-50 p-4 dark:border-zinc-800 dark:bg-zinc-950/40"
    >
      <div className="relative" style={{ width, height }}>
        <svg
          aria-hidden="true"
          width={width}
          height={height}
          className="absolute inset-0 text-zinc-400 dark:text-zinc-600"
        >
          {placed.flatMap((to) =>
            to.state.needs.flatMap((id) => {
              const from = at.get(id);
              if (!from) return [];
              return [
                <path
                  key={`${id}>${to.state.id}`}
                  d={edgePath(from, to, direction)}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth={1.5}
                />,
              ];
            }),
          )}
        </svg>
        <ol aria-label="Steps of this run">
          {placed.map(({ state, x, y }) => (
            <li
              key={state.id}
              className="absolute"
              style={{ left: x, top: y, width: NODE_W, height: NODE_H }}
              data-step={state.id}
              data-status={state.status}
            >
              <StepNode state={state} />
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** A curve from the side of `from` facing `to`: its right side across, its bottom downwards. */
function edgePath(from: Placed, to: Placed, direction: StepsDirection): string {
  if (direction === 'across') {
    const [x1, y1, x2, y2] = [from.x + NODE_W, from.y + NODE_H / 2, to.x, to.y + NODE_H / 2];
    const mid = (x1 + x2) / 2;
    return `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`;
  }
  const [x1, y1, x2, y2] = [from.x + NODE_W / 2, from.y + NODE_H, to.x + NODE_W / 2, to.y];
  const mid = (y1 + y2) / 2;
  return `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}`;
}

const WAITING: Record<string, string> = {
  pending: 'Waiting',
  skipped: 'Not run',
};

function StepNode({ state }: { state: PipelineStepState }) {
  const waiting = WAITING[state.status];
  const percent = Math.round((state.progress ?? 0) * 100);
  return (
    <article
      aria-label={`Step ${state.id}`}
      className="flex h-full flex-col gap-1.5 overflow-hidden rounded-lg border border-zinc-200 bg-white p-2.5 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="truncate font-medium text-zinc-950 dark:text-white">{state.id}</h3>
        {waiting ? (
          <span className="rounded-full px-2 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-300 ring-inset dark:text-zinc-300 dark:ring-zinc-700">
            {waiting}
          </span>
        ) : (
          <StatusBadge status={state.status as never} />
        )}
      </div>
      <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">
        {toolLabel(state.tool as ToolKey)}
        {state.model ? ` · ${state.model}` : ''}
      </p>
      {state.status === 'running' && (
        <div
          role="progressbar"
          aria-label={`Progress of ${state.id}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        >
          <div className="h-full bg-sky-600 dark:bg-sky-400" style={{ width: `${percent}%` }} />
        </div>
      )}
      {state.error && (
        // A long URL has no spaces to wrap at: break it anywhere rather than run out of the card.
        <p
          title={state.error}
          className="line-clamp-2 text-xs [overflow-wrap:anywhere] text-red-700 dark:text-red-300"
        >
          {state.error}
        </p>
      )}
      <StepCost state={state} />
      <div className="min-h-0 flex-1">
        <OutputPreview state={state} />
      </div>
      {state.job_id && (
        <Link
          to="/jobs/$jobId"
          params={{ jobId: state.job_id }}
          className="text-xs text-zinc-700 underline underline-offset-2 dark:text-zinc-300"
        >
          Open job<span className="sr-only"> of step {state.id}</span>
        </Link>
      )}
    </article>
  );
}

/**
 * What the step costs: its estimate while it runs, its charge once done, and for one that failed or was
 * cancelled the hold it gave back (its job was not charged).
 */
export function stepCostText(state: PipelineStepState): string | null {
  const estimate = state.estimated_cost_cents;
  const charged = state.charged_cents;
  if (charged === null || charged === undefined) {
    return estimate === null || estimate === undefined ? null : `Holds ${formatCredits(estimate)}`;
  }
  if (state.status === 'completed') return `Charged ${formatCredits(charged)}`;
  return estimate ? `Not charged: hold of ${formatCredits(estimate)} returned` : 'Not charged';
}

function StepCost({ state }: { state: PipelineStepState }) {
  const text = stepCostText(state);
  return text && <p className="truncate text-xs tabular-nums text-zinc-600 dark:text-zinc-400">{text}</p>;
}

function OutputPreview({ state }: { state: PipelineStepState }) {
  const output = state.output;
  if (!output?.url) return null;
  const type = output.media_type;
  if (type.startsWith('image/') || output.thumbnail_url) {
    return (
      <img
        src={output.thumbnail_url ?? output.url}
        alt={`Output of ${state.id}`}
        className="h-12 max-w-full rounded object-contain"
      />
    );
  }
  if (type.startsWith('audio/')) {
    // biome-ignore lint/a11y/useMediaCaption: generated audio has no captions to offer
    return <audio controls src={output.url} aria-label={`Output of ${state.id}`} className="h-8 w-full" />;
  }
  return (
    <a href={output.url} className="text-xs underline underline-offset-2" target="_blank" rel="noreferrer">
      Output of {state.id}
    </a>
  );
}
