import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ToolKey } from '../../../contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import {
  type CreatePresetRequest,
  TEAM_PRESET_NAMESPACE,
  TEAM_PRESETS_MAX,
  type UpdatePresetRequest,
} from '../../../contract/presets.ts';
import type { Queryable } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { PRESETS } from './preset-catalog.ts';
import type { PresetRecord } from './preset-record.ts';
import { previewUrl, type VoiceSampleSource } from './preset-view.ts';
import { sketchSvg } from './sketch-svg.ts';

interface TeamPresetRow {
  id: string;
  type: string;
  name: string;
  description: string;
  metadata: PresetRecord['metadata'];
  tools: PresetRecord['tools'];
  preview_url: string;
}

const COLUMNS = 'id, type, name, description, metadata, tools, preview_url';

const toRecord = (row: TeamPresetRow): PresetRecord => ({
  id: row.id,
  kind: 'provider_value',
  type: row.type,
  namespace: TEAM_PRESET_NAMESPACE,
  name: row.name,
  description: row.description,
  preview: { kind: 'url', url: row.preview_url },
  metadata: row.metadata,
  status: 'active',
  tools: row.tools,
});

/** The team's private presets (a few hundred at most: TEAM_PRESETS_MAX). */
export async function listTeamPresets(db: Queryable, teamId: string): Promise<PresetRecord[]> {
  const { rows } = await db.query<TeamPresetRow>(`SELECT ${COLUMNS} FROM team_presets WHERE team_id = $1`, [
    teamId,
  ]);
  return rows.map(toRecord);
}

/** One private preset of the team; another team's is as unknown as one that never was. */
export async function findTeamPreset(
  db: Queryable,
  teamId: string,
  id: string,
): Promise<PresetRecord | null> {
  const { rows } = await db.query<TeamPresetRow>(
    `SELECT ${COLUMNS} FROM team_presets WHERE team_id = $1 AND id = $2`,
    [teamId, id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Fields of the tool's request only: anything else could never be merged into a request. */
function checkFragment(tool: ToolKey, fragment: Record<string, unknown>): Record<string, unknown> {
  const schema = TOOL_REQUEST_BODIES[tool] as unknown as { shape?: Record<string, unknown> };
  const fields = new Set(Object.keys(schema.shape ?? {}));
  // Job options (a webhook, the cache switch) belong to one run, not to a reusable preset.
  const { options: _options, ...kept } = fragment;
  const unknown = Object.keys(kept).filter((key) => !fields.has(key));
  if (unknown.length > 0 || Object.keys(kept).length === 0) {
    const message =
      unknown.length > 0
        ? `The ${tool} tool takes no ${unknown.join(', ')}.`
        : 'The fragment holds no field of the tool.';
    throw new AppError('invalid_request', message, {
      status: 422,
      details: { fields: [{ field: 'body.fragment', message, code: 'custom' }] },
    });
  }
  return kept;
}

/** Built-in presets a fragment names (a voice, a style), found among its string values. */
function referencedPresets(value: unknown): PresetRecord[] {
  if (typeof value === 'string') {
    const preset = PRESETS.get(value);
    return preset ? [preset] : [];
  }
  if (value && typeof value === 'object') return Object.values(value).flatMap(referencedPresets);
  return [];
}

/**
 * A sample for a preset saved without one: the sample of a built-in preset it uses (when this server has
 * one), else a small picture drawn from its id (as a data: URL, so it needs no route and tells nothing
 * about the preset).
 */
function defaultPreview(
  id: string,
  fragment: Record<string, unknown>,
  publicUrl: string,
  samples: VoiceSampleSource | undefined,
): string {
  const sample = referencedPresets(fragment)
    .map((used) => previewUrl(used, publicUrl, samples))
    .find((url) => url !== '');
  if (sample) return sample;
  return `data:image/svg+xml;base64,${Buffer.from(sketchSvg(id, 0, 256, 256)).toString('base64')}`;
}

export async function createTeamPreset(
  db: Queryable,
  owner: { teamId: string; personId: string | null },
  body: z.output<typeof CreatePresetRequest>,
  publicUrl: string,
  samples?: VoiceSampleSource,
): Promise<PresetRecord> {
  const fragment = checkFragment(body.tool, body.fragment);
  let id: string;
  do id = `preset_${randomBytes(6).toString('hex')}`;
  while (PRESETS.get(id));
  const model = typeof fragment.model === 'string' ? { model: fragment.model } : {};
  // The count and the insert in one statement, so two saves at once cannot pass the limit together.
  const { rows } = await db.query<TeamPresetRow>(
    `INSERT INTO team_presets (id, team_id, created_by, type, name, description, metadata, tools, preview_url)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
      WHERE (SELECT count(*) FROM team_presets WHERE team_id = $2) < $10
     RETURNING ${COLUMNS}`,
    [
      id,
      owner.teamId,
      owner.personId,
      body.type ?? 'input',
      body.name,
      body.description ?? '',
      { tool: body.tool, ...model },
      { [body.tool]: fragment },
      body.preview_url ?? defaultPreview(id, fragment, publicUrl, samples),
      TEAM_PRESETS_MAX,
    ],
  );
  if (!rows[0]) {
    throw new AppError(
      'conflict',
      `The team already keeps ${TEAM_PRESETS_MAX} presets: delete one to save another.`,
    );
  }
  return toRecord(rows[0]);
}

export async function updateTeamPreset(
  db: Queryable,
  teamId: string,
  id: string,
  body: z.output<typeof UpdatePresetRequest>,
): Promise<PresetRecord> {
  const { rows } = await db.query<TeamPresetRow>(
    `UPDATE team_presets SET name = coalesce($3, name), description = coalesce($4, description), updated_at = now()
      WHERE team_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [teamId, id, body.name ?? null, body.description ?? null],
  );
  if (!rows[0]) throw noPrivatePreset(id);
  return toRecord(rows[0]);
}

export async function deleteTeamPreset(db: Queryable, teamId: string, id: string): Promise<void> {
  const { rowCount } = await db.query('DELETE FROM team_presets WHERE team_id = $1 AND id = $2', [
    teamId,
    id,
  ]);
  if (!rowCount) throw noPrivatePreset(id);
}

const noPrivatePreset = (id: string) =>
  new AppError('not_found', `No private preset ${id} in this team (built-in presets cannot be changed).`);
