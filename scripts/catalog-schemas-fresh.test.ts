import { describe, expect, it } from 'vitest';
import type { ToolKey } from '../src/contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../src/contract/generation.ts';
import { Catalog } from '../src/server/domain/catalog/catalog.ts';
import { MODELS } from '../src/server/domain/catalog/models.ts';
import { toolInputSchema } from '../src/server/domain/catalog/tool-schema.ts';
import { CATALOG_KEYS, catalogSchema } from '../src/web/schema-form/testing/catalog-schemas.ts';

/*
 * The console's schema-form tests run on a copy of the server's input schemas (the web room may not
 * import the server). This keeps the copy true: each entry must still be what GET /v2/tools/{key}?model=
 * answers, with the fixture's two documented trims.
 */
const catalog = new Catalog(MODELS, () => ({ available: true, reason: null }));

function served(tool: ToolKey, modelId: string) {
  const model = catalog.resolve(modelId)!.model;
  const schema = toolInputSchema(tool, TOOL_REQUEST_BODIES, catalog, model);
  const defs = schema.$defs as Record<string, unknown> | undefined;
  if (defs) {
    for (const name of Object.keys(defs)) if (name.endsWith('Request')) delete defs[name];
  }
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  if (properties.model) delete properties.model.examples;
  return JSON.parse(JSON.stringify(schema));
}

describe("the console's copy of the catalog's input schemas", () => {
  it.each(CATALOG_KEYS)('%s is still what the server serves', (key) => {
    const [tool, model] = key.split('/') as [ToolKey, string];
    expect(catalogSchema(key)).toEqual(served(tool, model));
  });
});
