import { get, useFormState } from 'react-hook-form';

/** The error of a list or group itself (not of a field inside it): at its name, or under `root`. */
export function useGroupError(name: string): string | undefined {
  const { errors } = useFormState({ name });
  const node: unknown = get(errors, name);
  if (!node || typeof node !== 'object') return undefined;
  const own = (node as { message?: unknown }).message;
  if (typeof own === 'string') return own;
  const root = (node as { root?: { message?: unknown } }).root?.message;
  return typeof root === 'string' ? root : undefined;
}
