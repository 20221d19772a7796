import { useCallback, useEffect, useState } from 'react';
import type { Resolver } from 'react-hook-form';
import type { JsonSchema } from './json-schema.ts';

/*
 * The playground's form checks compile each model's JSON Schema with zod (form-validation.ts): zod is
 * a large part of the page's JavaScript. The form renders and prices its defaults without it; the checks
 * load when the person first touches the form (or sends it), long before a message could show.
 */

type Validation = typeof import('./form-validation.ts');

let loaded: Validation | null = null;
let loading: Promise<Validation> | null = null;

/** The checks, fetched once; a failed download is tried again on the next call. */
export function loadValidation(): Promise<Validation> {
  loading ??= import('./form-validation.ts').then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The checks once they are here (at once for a form opened after they arrived), and a function that
 * starts loading them: call it on the form's first focus or pointer press.
 */
export function useValidation(): [Validation | null, () => void] {
  const [validation, setValidation] = useState<Validation | null>(loaded);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!wanted || validation) return;
    let current = true;
    loadValidation().then(
      (module) => current && setValidation(module),
      () => current && setWanted(false),
    );
    return () => {
      current = false;
    };
  }, [wanted, validation]);
  const start = useCallback(() => setWanted(true), []);
  return [validation, start];
}

/**
 * A react-hook-form resolver that checks with the schema's validator, loading the checks first when they
 * are not here yet (a submit before any focus, say). The resolved values are the request body.
 */
export function lazySchemaResolver<Body>(
  schema: JsonSchema,
  toRequest: (values: Record<string, unknown>) => Body,
): Resolver<Record<string, unknown>, unknown, Body> {
  return async (values, context, options) => {
    const { schemaResolver, zodFromSchema } = loaded ?? (await loadValidation());
    return schemaResolver(zodFromSchema(schema), toRequest)(values, context, options);
  };
}
