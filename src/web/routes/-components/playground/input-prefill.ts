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
