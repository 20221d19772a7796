import type { AnalyticsDimension } from '../../../../contract/analytics.ts';
import type { ToolKey } from '../../../../contract/common.ts';
import { TOOL_KEYS } from '../../../../contract/values.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import type { FilterName } from './analytics-search.ts';

export const DIMENSION_LABELS: Record<AnalyticsDimension, string> = {
  capability: 'Tool',
  model: 'Model',
  folder: 'Folder',
  api_key: 'API key',
  member: 'Person',
  creator: 'Started by',
  source: 'Source',
  status: 'Status',
};

const SOURCE_LABELS: Record<string, string> = {
  app: 'Console',
  api: 'API',
  mcp: 'MCP',
  internal: 'Internal',
  unknown: 'Unknown',
};

const STATUS_LABELS: Record<string, string> = {
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  awaiting_confirmation: 'Awaiting confirmation',
  running: 'Running',
  submitting: 'Submitting',
  queued: 'Queued',
  unknown: 'Unknown',
};

const NONE_LABELS: Partial<Record<FilterName, string>> = {
  folder: 'No folder',
  api_key: 'No API key',
  member: 'No person',
  creator: 'No one',
  model: 'No model',
  capability: 'No tool',
};

const isTool = (value: string): value is ToolKey => (TOOL_KEYS as readonly string[]).includes(value);

/**
 * A readable name for a filter value: fixed vocabularies are named here, ids by the labels the server
 * gave them in a breakdown (`known`), else the id itself.
 */
export function valueLabel(name: FilterName, value: string, known?: ReadonlyMap<string, string>): string {
  if (value === 'none') return NONE_LABELS[name] ?? 'None';
  if (name === 'capability' && isTool(value)) return toolLabel(value);
  if (name === 'source') return SOURCE_LABELS[value] ?? value;
  if (name === 'status') return STATUS_LABELS[value] ?? value;
  return known?.get(value) ?? value;
}

/** How a breakdown row reads: named vocabularies (tools, sources, statuses) by their names, ids by the server's label. */
export function rowLabel(
  dimension: AnalyticsDimension,
  row: { key: string | null; label: string; other: boolean },
): string {
  if (row.other || row.key === null) return row.label;
  if (dimension === 'capability' || dimension === 'source' || dimension === 'status') {
    return valueLabel(dimension, row.key);
  }
  return row.label;
}
