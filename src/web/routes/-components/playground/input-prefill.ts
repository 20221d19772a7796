import type { ToolKey } from '../../../../contract/common.ts';
import { peekPrefill, readDraft, setPrefill } from './form-drafts.ts';

/** The input field a tool takes a file in: transcription takes one audio URL, the others a `files` list. */
export function inputBodyFor(tool: ToolKey, url: string): Record<string, unknown> {
  return tool === 'transcription' ? { audio_url: url } : { files: [{ url }] };
}

/**
 * The playground was opened with a file (`?input=<url>`): the form of this tool and model opens with
 * that file as its input, the rest of its draft kept. Runs again when the person picks another model,
 * so the file follows them; values already waiting (a rerun with changes) are left alone.
 */
export function prefillInput(tool: ToolKey, model: string, baseModel: string, url: string): void {
  if (peekPrefill(tool, model)) return;
  setPrefill(tool, model, { ...readDraft(tool, baseModel), ...inputBodyFor(tool, url) });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A preset fragment merged into a body: objects merge key by key (provider_options), anything else is replaced. */
export function mergeFragment(
  base: Record<string, unknown>,
  fragment: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(fragment)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeFragment(current, value) : value;
  }
  return merged;
}

/**
 * The playground was opened with a preset (`?preset=<id>`, "Use in playground" on /presets): the form of
 * the fragment's model opens with the fragment applied over its draft (the prompt typed before is kept).
 */
export function prefillPreset(
  tool: ToolKey,
  model: string,
  baseModel: string,
  fragment: Record<string, unknown>,
): void {
  const { model: _model, ...fields } = fragment;
  setPrefill(tool, model, mergeFragment(readDraft(tool, baseModel) ?? {}, fields));
}
