import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * One audio element for all preview buttons: starting a sample stops the one playing. A sample is
 * `loading` from the press until its sound starts (a provider's file may take a moment), then `playing`
 * until it ends; `failed` names the sample that could not play.
 */
export function usePreviewPlayer() {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [loading, setLoading] = useState<string | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const stop = useCallback(() => {
    // Forgotten first, so the events of the element being let go (an aborted play) change nothing.
    const audio = audioRef.current;
    audioRef.current = null;
    audio?.pause();
    setLoading(null);
    setPlaying(null);
  }, []);

  useEffect(() => stop, [stop]);

  const toggle = useCallback(
    (id: string, url: string) => {
      const active = loading ?? playing;
      stop();
      if (active === id) return;
      const audio = new Audio(url);
      audioRef.current = audio;
      const current = () => audioRef.current === audio;
      const fail = () => {
        if (!current()) return;
        audioRef.current = null;
        setLoading(null);
        setPlaying(null);
        setFailed(id);
      };
      audio.addEventListener('playing', () => {
        if (!current()) return;
        setLoading(null);
        setPlaying(id);
      });
      audio.addEventListener('ended', () => {
        if (current()) stop();
      });
      audio.addEventListener('error', fail);
      setFailed(null);
      setLoading(id);
      audio.play().catch(fail);
    },
    [loading, playing, stop],
  );

  /** Whether the sample `id` is loading or playing (its button then stops it). */
  const active = (id: string) => loading === id || playing === id;

  return { loading, playing, failed, active, toggle };
}
