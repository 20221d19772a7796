import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ANALYTICS_DIMENSIONS, analyticsFilters } from './analytics.ts';
import { Uuid } from './common.ts';
import { FileId } from './files.ts';
import { JobId, KeyId } from './jobs.ts';
import { PresetId } from './presets.ts';
import { TemplateId } from './templates.ts';
import {
  isAnalyticsFilterValue,
  isFileId,
  isJobId,
  isKeyId,
  isPresetId,
  isTemplateId,
  isUuid,
} from './values.ts';

/*
 * The plain checks (for code that loads without zod) must agree with the zod schemas the server applies,
 * value for value: a link the console keeps, the server accepts, and the other way round.
 */

const UUID = '3f1c2a4e-9b7d-4c2e-8a1f-0e5d6c7b8a90';
const ids = [
  '',
  'job_',
  'job_abc',
  'job_a b',
  `job_${'x'.repeat(124)}`,
  `job_${'x'.repeat(125)}`,
  'key_abc-DEF_1',
  'key_',
  'key_a/b',
  'file_01H',
  'file_',
  'tpl_starter-1',
  'tpl_',
  'preset_0123456789ab',
  'preset_0123456789AB',
  'preset_0123456789abc',
  UUID,
  UUID.toUpperCase(),
  '3f1c2a4e-9b7d-9c2e-8a1f-0e5d6c7b8a90',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
];

describe('plain id checks', () => {
  it.each([
    ['job', JobId, isJobId],
    ['key', KeyId, isKeyId],
    ['file', FileId, isFileId],
    ['template', TemplateId, isTemplateId],
    ['preset', PresetId, isPresetId],
    ['uuid', Uuid, isUuid],
  ] as const)('%s ids: the same answer as the zod schema', (_, schema: z.ZodType, plain) => {
    for (const id of ids) expect(plain(id), id).toBe(schema.safeParse(id).success);
  });
});

describe('isAnalyticsFilterValue', () => {
  const samples: Record<(typeof ANALYTICS_DIMENSIONS)[number], string[]> = {
    capability: ['image', 'image,video', ' image , video ', 'imag', 'none', ' none ', 'image,none', ''],
    model: ['local-sketch', 'openai:gpt-image-1', 'x'.repeat(200), 'x'.repeat(201), 'a,,b'],
    folder: [UUID, `${UUID},${UUID}`, 'none', 'folder', UUID.slice(1)],
    api_key: ['key_abc', 'key_abc,key_def', 'key_', 'abc', 'none'],
    member: [UUID, 'someone', 'none'],
    creator: [`member:${UUID}`, 'api_key:key_abc', 'api_key:abc', `member:${UUID},api_key:key_a`, 'member:'],
    source: ['app', 'api,mcp', 'internal,unknown', 'web', 'none'],
    status: ['completed', 'awaiting_confirmation,unknown', 'done', 'queued,running'],
  };
  const tooMany = Array.from({ length: 51 }, () => 'image').join(',');
  const atMost = Array.from({ length: 50 }, () => 'image').join(',');
  const tooLong = `${'x'.repeat(3996)},abcd`;

  it.each(ANALYTICS_DIMENSIONS)('%s: the same answer as the zod filter', (name) => {
    for (const value of [...samples[name], tooMany, atMost, tooLong]) {
      expect(isAnalyticsFilterValue(name, value), value.slice(0, 60)).toBe(
        analyticsFilters[name].safeParse(value).success,
      );
    }
  });
});
