import { z } from 'zod';
import { VideoAnalyzeRequest } from '../../../../contract/generation.ts';
import type { JsonSchema } from '../../../schema-form/json-schema.ts';

let schema: JsonSchema | null = null;

/**
 * The input schema of video analysis. It has its own route and body (`video_url`, spec 4.2) while the
 * catalog lists it among the video models, whose schema describes `POST /video`: the form is built
 * from the contract's request instead, the same way the server builds tool schemas.
 */
export function analysisInputSchema(): JsonSchema {
  schema ??= z.toJSONSchema(VideoAnalyzeRequest, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return schema;
}
