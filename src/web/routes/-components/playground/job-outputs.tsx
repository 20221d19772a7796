import { lazy, Suspense, useState } from 'react';
import type { OutputEnvelope } from '../../../../contract/jobs.ts';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { formatBytes } from '../../../format/bytes.ts';
import { isAnalysisReport, isTranscript } from './inline-output-kind.ts';

// The report viewer is sizeable and needed only for analysis jobs: loaded on first use.
const AnalysisReportView = lazy(() =>
  import('./analysis-report.tsx').then((module) => ({ default: module.AnalysisReportView })),
);

const TranscriptView = lazy(() =>
  import('./transcript-view.tsx').then((module) => ({ default: module.TranscriptView })),
);

type Output = OutputEnvelope['outputs'][number];

function fileName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() || 'output');
  } catch {
    return 'output';
  }
}

function ImageViewer({ output, label }: { output: Output & { url: string }; label: string }) {
  const [actual, setActual] = useState(false);
  return (
    <figure className="flex flex-col gap-2">
      <div
        className={cx(
          'relative overflow-auto rounded-lg bg-zinc-100 dark:bg-zinc-800',
          actual ? 'max-h-[70vh]' : '',
        )}
      >
        <img
          src={output.url}
          alt={label}
          className={actual ? 'max-w-none' : 'mx-auto max-h-[28rem] w-auto max-w-full object-contain'}
        />
      </div>
      <figcaption className="flex items-center gap-2">
        <Button variant="ghost" size="sm" aria-pressed={actual} onClick={() => setActual(!actual)}>
          {actual ? 'Fit to view' : 'Actual size'}
        </Button>
      </figcaption>
    </figure>
  );
}

function OutputBody({ output, label, compact }: { output: Output; label: string; compact: boolean }) {
  const type = output.media_type;
  if (output.data !== undefined && isAnalysisReport(output.data)) {
    return (
      <Suspense fallback={<LoadingNote>Opening the report…</LoadingNote>}>
        <AnalysisReportView data={output.data} />
      </Suspense>
    );
  }
  const data: unknown = output.data;
  if (data !== undefined && isTranscript(data)) {
    return (
      <Suspense fallback={<LoadingNote>Opening the transcript…</LoadingNote>}>
        <TranscriptView data={data} />
      </Suspense>
    );
  }
  if (!output.url)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No file for this output.</p>;
  const url = output.url;
  if (type.startsWith('image/')) {
    return compact ? (
      <img
        src={url}
        alt={label}
        className="max-h-64 w-full rounded-lg bg-zinc-100 object-contain dark:bg-zinc-800"
      />
    ) : (
      <ImageViewer output={{ ...output, url }} label={label} />
    );
  }
  if (type.startsWith('video/')) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: generated footage has no caption track to offer.
      <video
        controls
        preload="metadata"
        src={url}
        poster={output.thumbnail_url ?? undefined}
        aria-label={label}
        className="max-h-[28rem] w-full rounded-lg bg-black"
      />
    );
  }
  if (type.startsWith('audio/')) {
    // biome-ignore lint/a11y/useMediaCaption: generated audio has no caption track to offer.
    return <audio controls preload="metadata" src={url} aria-label={label} className="w-full" />;
  }
  return null;
}

/** A job's outputs, each drawn for what it is: image, video, audio, transcript, analysis report, file. */
export function JobOutputs({ output, compact = false }: { output: OutputEnvelope; compact?: boolean }) {
  const outputs = output.outputs;
  if (outputs.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">The job gave no output.</p>;
  return (
    <ul className="flex flex-col gap-4">
      {outputs.map((item, index) => {
        const label = `Output ${index + 1} of ${outputs.length} (${item.media_type})`;
        return (
          <li key={item.url ?? `data-${index}`} className="flex flex-col gap-2">
            <OutputBody output={item} label={label} compact={compact} />
            {item.url && (
              <p className="flex flex-wrap items-center gap-x-3 text-xs text-zinc-600 dark:text-zinc-400">
                <span>
                  {item.media_type}
                  {formatBytes(item.size_bytes) && ` · ${formatBytes(item.size_bytes)}`}
                </span>
                <a href={item.url} target="_blank" rel="noreferrer" className="font-medium underline">
                  Open {fileName(item.url)}
                </a>
                <a href={item.url} download className="font-medium underline">
                  Download
                </a>
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
