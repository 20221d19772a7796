import { Alert } from '../../../components/alert.tsx';
import { formatSeconds, readAnalysisReport, type TimedText } from './analysis-report-data.ts';

function TimedList({ items, empty }: { items: TimedText[]; empty: string }) {
  if (items.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{empty}</p>;
  return (
    <ol className="flex flex-col gap-1">
      {items.map((item) => (
        <li key={item.key} className="grid grid-cols-[7.5rem_1fr] gap-3 text-sm">
          <span className="font-mono text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
            {formatSeconds(item.start)}
            {item.end !== null && ` – ${formatSeconds(item.end)}`}
          </span>
          <span>{item.text}</span>
        </li>
      ))}
    </ol>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      {children}
    </section>
  );
}

/**
 * The report of a video analysis. All of it comes from the footage: it is shown as plain text, and
 * passages that look like instructions to an AI agent are flagged as warnings, never acted upon.
 */
export function AnalysisReportView({ data }: { data: unknown }) {
  const report = readAnalysisReport(data);
  return (
    <article aria-label="Video analysis report" className="flex flex-col gap-5">
      {report.suspicious.length > 0 && (
        <Alert tone="error" title={`Suspicious instructions in the video (${report.suspicious.length})`}>
          <p>{report.warning}</p>
          <ul className="mt-2 flex flex-col gap-2">
            {report.suspicious.map((item) => (
              <li key={item.key} className="rounded-md bg-white/60 p-2 dark:bg-black/20">
                <p className="text-xs">
                  {formatSeconds(item.at)} · from {item.source}
                  {item.reason && ` · ${item.reason}`}
                </p>
                <blockquote className="mt-1 font-mono text-xs break-words whitespace-pre-wrap">
                  {item.text}
                </blockquote>
              </li>
            ))}
          </ul>
        </Alert>
      )}
      <Section title="Summary">
        <p className="text-sm">{report.summary || 'No summary.'}</p>
        {report.focus && <p className="text-sm text-zinc-700 dark:text-zinc-300">Focus: {report.focus}</p>}
      </Section>
      {report.facts.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {report.facts.map((fact) => (
            <div key={fact.label} className="contents">
              <dt className="text-zinc-600 dark:text-zinc-400">{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {report.keyframes.length > 0 && (
        <Section title="Keyframes">
          <ul className="relative flex gap-2 overflow-x-auto">
            {report.keyframes.map((frame) => (
              <li key={frame.key} className="shrink-0">
                <figure>
                  <img
                    src={frame.image}
                    alt={`Keyframe at ${formatSeconds(frame.time)}`}
                    className="h-20 rounded"
                  />
                  <figcaption className="text-xs text-zinc-500 dark:text-zinc-400">
                    {formatSeconds(frame.time)}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </Section>
      )}
      <Section title="Visual timeline">
        <TimedList items={report.timeline} empty="No scenes were described." />
      </Section>
      <Section title="Transcript">
        <TimedList items={report.transcript} empty={report.transcriptNote ?? 'No speech was transcribed.'} />
      </Section>
      <Section title="On-screen text">
        <TimedList items={report.onScreenText} empty="No on-screen text was read." />
      </Section>
      {report.suspicious.length === 0 && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          No suspicious instructions were found in the video.
        </p>
      )}
      {report.notes.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-zinc-600 dark:text-zinc-400">
          {report.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </article>
  );
}
