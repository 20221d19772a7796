import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

type FormSchema = z.ZodType<FieldValues, FieldValues>;

export type LazyResolver<S extends FormSchema> = Resolver<z.input<S>, unknown, z.output<S>> & {
  /** Starts loading the schema (on the first keystroke, say), so a submit does not wait for it. */
  preload(): void;
};

/**
 * A form resolver that validates with a contract schema loaded on first use. The sign-in forms keep
 * the contract's own rules (one source of truth), but the contract needs zod, a large download
 * that the sign-in page need not make before the person types. A failed download is tried again at
 * the next validation.
 */
export function lazyZodResolver<S extends FormSchema>(loadSchema: () => Promise<S>): LazyResolver<S> {
  let loading: Promise<Resolver<FieldValues>> | null = null;
  const load = () => {
    loading ??= Promise.all([loadSchema(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema) as unknown as Resolver<FieldValues>,
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const resolver: Resolver<FieldValues> = async (values, context, options) =>
    (await load())(values, context, options);
  return Object.assign(resolver as unknown as Resolver<z.input<S>, unknown, z.output<S>>, {
    preload: () => void load().catch(() => undefined),
  });
}
