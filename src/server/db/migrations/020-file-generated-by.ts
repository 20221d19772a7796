import type { Migration } from '../migrate.ts';

/**
 * Generated files keep what made them in their metadata (the job's prompt, model and tool), so the file
 * list can show and search them. Files made before that was kept learn it from their job once, here, the
 * same way (`prompt`, else speech `text`, its first 1000 characters). Their names stay as they were.
 */
export const fileGeneratedBy: Migration = {
  id: '020-file-generated-by',
  sql: `
UPDATE files f SET metadata = f.metadata || jsonb_strip_nulls(jsonb_build_object(
    'prompt', left(coalesce(
      CASE WHEN jsonb_typeof(j.input->'prompt') = 'string' THEN nullif(btrim(j.input->>'prompt'), '') END,
      CASE WHEN jsonb_typeof(j.input->'text') = 'string' THEN nullif(btrim(j.input->>'text'), '') END), 1000),
    'model', j.model,
    'tool', j.tool))
  FROM jobs j
 WHERE f.job_id = j.id AND f.origin = 'job' AND NOT (f.metadata ? 'model');`,
};
