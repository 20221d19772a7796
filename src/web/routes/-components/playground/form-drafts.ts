import type { ToolKey } from '../../../../contract/common.ts';
import { type StoredValue, storedValue } from '../../../storage/stored-value.ts';

/**
 * What the playground remembers in this browser: the form values per tool and model (so a prompt
 * survives navigation and reloads) and the last model used per tool.
 */
const PREFIX = 'media-console:playground';

export type Draft = Record<string, unknown>;

const isRecord = (json: unknown): json is Record<string, unknown> =>
  typeof json === 'object' && json !== null && !Array.isArray(json);

/** Plain checks, not zod: the playground route reads the last model before its page (and zod) loads. */
const readStoredDraft = (json: unknown): Draft | null | undefined =>
  json === null || isRecord(json) ? json : undefined;
const readModels = (json: unknown): Record<string, string> | undefined =>
  isRecord(json) && Object.values(json).every((model) => typeof model === 'string')
    ? (json as Record<string, string>)
    : undefined;

const drafts = new Map<string, StoredValue<Draft | null>>();

function draftStore(tool: ToolKey, model: string): StoredValue<Draft | null> {
  const key = `${PREFIX}:draft:${tool}:${model}`;
  let store = drafts.get(key);
  if (!store) {
    store = storedValue<Draft | null>(key, readStoredDraft, null);
    drafts.set(key, store);
  }
  return store;
}

export function readDraft(tool: ToolKey, model: string): Draft | null {
  return draftStore(tool, model).get();
}

export function saveDraft(tool: ToolKey, model: string, values: Draft): void {
  draftStore(tool, model).set(values);
}

export function clearDraft(tool: ToolKey, model: string): void {
  draftStore(tool, model).clear();
}

const lastModels = storedValue(`${PREFIX}:models`, readModels, {});

export function lastModel(tool: ToolKey): string | null {
  return lastModels.get()[tool] ?? null;
}

export function rememberModel(tool: ToolKey, model: string): void {
  if (lastModels.get()[tool] === model) return;
  lastModels.set({ ...lastModels.get(), [tool]: model });
}

/**
 * Values a form should open with once, instead of its draft: a rerun with changes, or a preset that
 * moved to another model. Kept in memory until that form has opened.
 */
const prefills = new Map<string, Draft>();

export function setPrefill(tool: ToolKey, model: string, body: Draft): void {
  prefills.set(`${tool}|${model}`, body);
}

/** Read while the form starts; `dropPrefill` once it has (a start may run twice in development). */
export function peekPrefill(tool: ToolKey, model: string): Draft | null {
  return prefills.get(`${tool}|${model}`) ?? null;
}

export function dropPrefill(tool: ToolKey, model: string): void {
  prefills.delete(`${tool}|${model}`);
}
