import { useSyncExternalStore } from 'react';

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastInput {
  title: string;
  description?: string;
  tone?: ToastTone;
  /** One follow-up, for example "Open" to see the job that finished. */
  action?: { label: string; onClick: () => void };
}

export interface Toast extends ToastInput {
  id: number;
  tone: ToastTone;
}

/** More than this many at once is noise: the oldest gives way. */
const MAX_TOASTS = 4;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast in the app's toast region; returns its id. Callable from anywhere (no provider). */
export function showToast(input: ToastInput): number {
  const id = nextId++;
  set([...toasts, { ...input, tone: input.tone ?? 'info', id }].slice(-MAX_TOASTS));
  return id;
}

export function dismissToast(id: number): void {
  if (toasts.some((toast) => toast.id === id)) set(toasts.filter((toast) => toast.id !== id));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
