import { describe, expect, it } from 'vitest';
import type { ToolKey } from '../src/contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../src/contract/generation.ts';
import { Catalog } from '../src/server/domain/catalog/catalog.ts';
import { MODELS } from '../src/server/domain/catalog/models.ts';
import { toolInputSchema } from '../src/server/domain/catalog/tool-schema.ts';

/*
 * The console's schema-form tests run on a snapshot of the server's input schemas (the web room may not
 * import the server): src/web/schema-form/testing/catalog-schemas.gen.json. This test writes it (`-u`)
 * and fails when it is no longer what GET /v2/tools/{key}?model= answers.
 */
const catalog = new Catalog(MODELS, () => ({ available: true, reason: null }));

/** One model per JSON Schema feature the catalog's schemas use. */
const KEYS = [
  'image/local-sketch',
  'image/local-edit',
  'image/local-upscale',
  'image/flux-1.1-pro',
  'image/recraft-v3',
  'video/local-motion',
  'video/kling-2.1-master',
  'speech/local-flite',
  'speech/eleven-multilingual-v2',
  'music/local-procedural-music',
  'transcription/local-pocketsphinx',
  'ffmpeg/ffmpeg',
  'render/local-render',
  'pipeline/pipeline',
];

/**
 * The schema served for a tool and model, with two trims: the copy of the root under
 * `$defs.<Tool>Request` (nothing refers to it) and the long `examples` list of `model`.
 */
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

describe("the console's snapshot of the catalog's input schemas", () => {
  it('is what the server serves', async () => {
    const schemas = Object.fromEntries(
      KEYS.map((key) => {
        const [tool, model] = key.split('/') as [ToolKey, string];
        return [key, served(tool, model)];
      }),
    );
    await expect(`${JSON.stringify(schemas, null, 2)}\n`).toMatchFileSnapshot(
      '../src/web/schema-form/testing/catalog-schemas.gen.json',
    );
  });
});
