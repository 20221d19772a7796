import { useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';

type SampleState = 'idle' | 'loading' | 'ready' | 'failed';

/**
 * A sound sample (a voice's, a team's speech preset's) in the browser's own audio player, which keyboards
 * and screen readers already know; fetched only when played, saying when it is loading and when it cannot
 * be played (a provider's file gone, the network down).
 */
export function AudioSample({ url, name }: { url: string; name: string }) {
  const [state, setState] = useState<SampleState>('idle');
  return (
    <div className="flex flex-col gap-1">
      {/* biome-ignore lint/a11y/useMediaCaption: a sample is one short spoken sentence, named by its label. */}
      <audio
        controls
        preload="none"
        src={url}
        aria-label={`Sample of ${name}`}
        // Not on loadstart: browsers fire it on render even with preload="none", before anyone pressed play.
        onPlay={() => setState('loading')}
        onWaiting={() => setState('loading')}
        onCanPlay={() => setState('ready')}
        onPlaying={() => setState('ready')}
        onError={() => setState('failed')}
        className="w-full"
      />
      <p role="status" className="min-h-4 text-xs text-zinc-600 dark:text-zinc-400">
        {state === 'loading' && (
          <span className="inline-flex items-center gap-1">
            <Spinner className="size-3" /> Loading the sample…
          </span>
        )}
      </p>
      {state === 'failed' && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          The sample could not be played. Try again later.
        </p>
      )}
    </div>
  );
}
