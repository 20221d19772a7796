import { useLayoutEffect, useRef, useState } from 'react';

/**
 * An editor shown in place of the control that opened it ("New folder", a ✎ beside a name): which thing
 * is being edited, or null. When it closes, saved or cancelled, focus goes back to the opener, found by
 * its id once it is drawn again: the field that had focus leaves with the editor, and focus would
 * otherwise fall to the page's body (the opener was gone while the editor was open, so it cannot be held
 * as an element).
 */
export function useInPlaceEditor<T>(): {
  editing: T | null;
  open: (what: T, openerId: string) => void;
  close: () => void;
} {
  const [editing, setEditing] = useState<T | null>(null);
  const returnTo = useRef<string | null>(null);
  // In the commit that draws the opener again, so a key pressed next reaches it.
  useLayoutEffect(() => {
    if (editing !== null || returnTo.current === null) return;
    document.getElementById(returnTo.current)?.focus();
    returnTo.current = null;
  }, [editing]);
  return {
    editing,
    open: (what, openerId) => {
      returnTo.current = openerId;
      setEditing(what);
    },
    close: () => setEditing(null),
  };
}
