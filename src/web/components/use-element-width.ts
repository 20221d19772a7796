import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * An element's inner width (clientWidth), kept current with a ResizeObserver: for layouts that must fit
 * the room they are given (a grid's columns, a graph's direction). 0 until measured, and where the
 * browser (or jsdom) has no ResizeObserver, the first measure stays.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
