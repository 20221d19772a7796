import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { cx } from '../../../components/cx.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatDuration } from '../../../format/duration.ts';
import { runTimeText } from '../../../queries/run-times.ts';
import { DetailSection } from './detail-list.tsx';
import { type PhaseKey, type TimelineSegment, timelineSegments } from './timeline-segments.ts';
import { useNow } from './use-now.ts';

const COLOURS: Record<PhaseKey, string> = {
  queued: 'bg-zinc-400 dark:bg-zinc-500',
  submitting: 'bg-amber-400 dark:bg-amber-500',
  provider_queue: 'bg-violet-400 dark:bg-violet-500',
  provider_run: 'bg-sky-500 dark:bg-sky-400',
  running: 'bg-sky-500 dark:bg-sky-400',
  downloading: 'bg-emerald-500 dark:bg-emerald-400',
};

/** The phase under way is striped, so it differs from the finished ones by more than its colour. */
const ONGOING =
  'bg-[repeating-linear-gradient(135deg,transparent_0_4px,rgb(255_255_255/0.45)_4px_8px)] dark:bg-[repeating-linear-gradient(135deg,transparent_0_4px,rgb(0_0_0/0.35)_4px_8px)]';

/** "Where the time went": a bar of the job's phases, each named with its duration beside it. */
export function JobTimeline({ job }: { job: Job }) {
  return isTerminalJobStatus(job.status) ? (
    <TimelineView job={job} segments={timelineSegments(job, Date.now())} />
  ) : (
    <LiveTimeline job={job} />
  );
}

/** Only a job under way ticks: its last phase grows each second. */
function LiveTimeline({ job }: { job: Job }) {
  const now = useNow(1000);
  return <TimelineView job={job} segments={timelineSegments(job, now)} />;
}

function TimelineView({ job, segments }: { job: Job; segments: TimelineSegment[] }) {
  const total = segments.reduce((sum, s) => sum + s.ms, 0);
  const active = !isTerminalJobStatus(job.status);
  return (
    <DetailSection title="Where the time went">
      <div className="rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
        {/* The picture; the list below says the same in words for those who do not see it. */}
        <div aria-hidden="true" className="flex h-3 w-full gap-0.5 overflow-hidden rounded-full">
          {segments.map((segment) => (
            <div
              key={segment.phase}
              data-phase={segment.phase}
              title={`${segment.label}: ${formatDuration(segment.ms)}`}
              style={{ flexGrow: segment.ms, flexBasis: 0 }}
              className={cx('h-full min-w-1.5', COLOURS[segment.phase])}
            >
              {segment.ongoing && <div className={cx('h-full w-full animate-pulse', ONGOING)} />}
            </div>
          ))}
        </div>
        <ol className="mt-3 flex flex-col gap-1">
          {segments.map((segment) => (
            <li key={segment.phase} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className={cx('size-2.5 shrink-0 rounded-sm', COLOURS[segment.phase])}
              />
              <span className={cx(segment.ongoing && 'font-medium')}>
                {segment.label}
                {segment.ongoing && <span className="text-zinc-600 dark:text-zinc-400"> (now)</span>}
              </span>
              <span className="ml-auto tabular-nums text-zinc-700 dark:text-zinc-300">
                {formatDuration(segment.ms)}
                {segment.ongoing && ' so far'}
              </span>
            </li>
          ))}
        </ol>
        <p className="mt-2 flex border-t border-zinc-100 pt-2 text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          <span>{active ? 'Under way for' : 'In all'}</span>
          <span className="ml-auto tabular-nums">{formatDuration(total)}</span>
        </p>
        <Moments job={job} />
      </div>
    </DetailSection>
  );
}

/**
 * The moments the phases run between, and what this server expected of the run: the drawer's one
 * account of time (the phases above say how long each part took).
 */
function Moments({ job }: { job: Job }) {
  const finished = isTerminalJobStatus(job.status) ? (job.completed_at ?? job.updated_at) : null;
  const moments: Array<[string, string | null]> = [
    ['Created', formatDateTime(job.created_at)],
    ['Started', job.started_at && formatDateTime(job.started_at)],
    [job.status === 'completed' ? 'Completed' : 'Ended', finished && formatDateTime(finished)],
    // Measured or the catalog's, said as which; jobs made before the estimate was kept have only the number.
    [
      'Expected run',
      job.estimated_run ? runTimeText(job.estimated_run) : formatDuration(job.estimated_duration_ms),
    ],
  ];
  return (
    <dl className="mt-2 grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-1 border-t border-zinc-100 pt-2 text-xs dark:border-zinc-800">
      {moments.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
          <dd className="tabular-nums">{value ?? <span className="text-zinc-500">—</span>}</dd>
        </div>
      ))}
    </dl>
  );
}
