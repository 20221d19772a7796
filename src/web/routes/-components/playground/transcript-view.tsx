import { formatSeconds } from './analysis-report-data.ts';

interface Segment {
  key: string;
  start: number | null;
  end: number | null;
  text: string;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function segmentsOf(data: Obj): Segment[] {
  const list = Array.isArray(data.segments) ? data.segments.filter(isObj) : [];
  return list.map((s, i) => ({
    key: `segment-${i}`,
    start: typeof s.start === 'number' ? s.start : null,
    end: typeof s.end === 'number' ? s.end : null,
    text: typeof s.text === 'string' ? s.text : '',
  }));
}

/** A transcript: its language and length, then each segment with its timestamps. */
export function TranscriptView({ data }: { data: unknown }) {
  if (!isObj(data)) return null;
  const segments = segmentsOf(data);
  const language = typeof data.language === 'string' ? data.language : null;
  const duration = typeof data.duration_seconds === 'number' ? data.duration_seconds : null;
  return (
    <section aria-label="Transcript" className="flex flex-col gap-2">
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Transcript{language && ` · ${language}`}
        {duration !== null && ` · ${formatSeconds(duration)}`}
      </p>
      {segments.length === 0 ? (
        <p className="text-sm">
          {typeof data.text === 'string' && data.text ? data.text : 'No speech was recognised.'}
        </p>
      ) : (
        <ol className="flex max-h-96 flex-col gap-1 overflow-y-auto">
          {segments.map((segment) => (
            <li key={segment.key} className="grid grid-cols-[7.5rem_1fr] gap-3 text-sm">
              <span className="font-mono text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
                {formatSeconds(segment.start)} – {formatSeconds(segment.end)}
              </span>
              <span>{segment.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
