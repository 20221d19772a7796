/**
 * Input schemas as the reference server serves them (`GET /v2/tools/{key}?model=`), one model per JSON
 * Schema feature the catalog uses, for the console's schema-form tests (the web room may not import the
 * server). catalog-schemas.gen.json is a snapshot written by scripts/catalog-schemas-fresh.test.ts, which
 * fails when the server's schemas change: `npx vitest run scripts/catalog-schemas-fresh.test.ts -u`
 * writes it again. Never edit it by hand.
 */
import type { JsonSchema } from '../json-schema.ts';
import snapshot from './catalog-schemas.gen.json';

const CATALOG_SCHEMAS = snapshot as unknown as Record<string, JsonSchema>;

/** A served schema by `tool/model`; a copy, so a test cannot change what another one reads. */
export function catalogSchema(key: string): JsonSchema {
  const schema = CATALOG_SCHEMAS[key];
  if (!schema) throw new Error(`no catalog schema ${key}`);
  return structuredClone(schema);
}

export const CATALOG_KEYS = Object.keys(CATALOG_SCHEMAS);
