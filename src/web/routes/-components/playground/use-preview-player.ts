import { useCallback, useEffect, useRef, useState } from 'react';

/** One audio element for all preview buttons: starting a sample stops the one playing. */
export function usePreviewPlayer() {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(
    () => () => {
      audioRef.current?.pause();
      audioRef.current = null;
    },
    [],
  );

  const toggle = useCallback(
    (id: string, url: string) => {
      const current = audioRef.current;
      if (current && playing === id) {
        current.pause();
        setPlaying(null);
        return;
      }
      current?.pause();
      const audio = new Audio(url);
      audioRef.current = audio;
      audio.addEventListener('ended', () => setPlaying((p) => (p === id ? null : p)));
      setFailed(null);
      setPlaying(id);
      audio.play().catch(() => {
        setPlaying((p) => (p === id ? null : p));
        setFailed(id);
      });
    },
    [playing],
  );

  return { playing, failed, toggle };
}
