import { useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '../../../components/button.tsx';
import type { MediaKind } from '../../../queries/generation.ts';
import { hintOf } from '../../../schema-form/field-hints.ts';
import type { FilesSpec } from '../../../schema-form/field-spec.ts';
import { FieldsetShell, useFieldIds } from '../../../schema-form/fields/field-shell.tsx';
import { useGroupError } from '../../../schema-form/fields/group-error.ts';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';
import { LazyOutputPicker } from './lazy-output-picker.tsx';
import { UploadControl } from './upload-control.tsx';

function looksLikeUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:/i.test(text);
}

function nameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
  } catch {
    return url;
  }
}

/**
 * The media family a files field takes, as far as its schema says: a description naming only images
 * (the image tool's "Source images...") narrows the picker to images; a mixed field ("a video and an
 * audio file") shows everything.
 */
export function mediaKindOf(spec: FilesSpec): MediaKind {
  const text = `${spec.label} ${spec.description ?? ''}`.toLowerCase();
  const named = (['image', 'video', 'audio'] as const).filter((kind) =>
    new RegExp(`\\b${kind}s?\\b`).test(text),
  );
  return named.length === 1 ? named[0]! : 'all';
}

/** Input files (`files: [{ url }]`): a URL, a pick from the person's Files, or an upload where offered. */
export function FilesPicker({ spec, name, kind }: { spec: FilesSpec; name: string; kind?: MediaKind }) {
  const { control } = useFormContext();
  const { fields, append, remove, move } = useFieldArray({ control, name });
  const values = (useWatch({ name }) as Array<{ url?: string }> | undefined) ?? [];
  const error = useGroupError(name);
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const [draft, setDraft] = useState('');
  const [draftProblem, setDraftProblem] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const full = spec.maxItems !== undefined && fields.length >= spec.maxItems;
  const none = spec.maxItems === 0;
  const accepted = kind ?? mediaKindOf(spec);

  function add(url: string) {
    if (full) return;
    append({ url });
  }

  function addDraft() {
    const url = draft.trim();
    if (!looksLikeUrl(url)) {
      setDraftProblem('Enter a full http(s) URL.');
      return;
    }
    add(url);
    setDraft('');
    setDraftProblem(null);
  }

  return (
    <FieldsetShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="sm:col-span-2"
    >
      {none ? null : (
        <UploadControl
          onUploaded={add}
          multiple={!spec.maxItems || spec.maxItems > 1}
          accept={accepted === 'all' ? undefined : `${accepted}/*`}
        >
          {fields.length > 0 && (
            <ol className="flex flex-col gap-2">
              {fields.map((row, index) => {
                const url = values[index]?.url ?? '';
                return (
                  <li
                    key={row.id}
                    className="flex items-center gap-3 rounded-lg border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
                  >
                    <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">{index + 1}</span>
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm">{nameOf(url)}</span>
                      <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">{url}</span>
                    </span>
                    {fields.length > 1 && (
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={index === 0}
                        onClick={() => move(index, index - 1)}
                        aria-label={`Move file ${index + 1} up`}
                      >
                        ↑
                      </Button>
                    )}
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => remove(index)}
                      aria-label={`Remove file ${index + 1}`}
                    >
                      Remove
                    </Button>
                  </li>
                );
              })}
            </ol>
          )}
          {!full && (
            <div className="flex flex-col gap-2">
              <div className="flex gap-2">
                <input
                  type="url"
                  inputMode="url"
                  aria-label={`${spec.label}: add by URL`}
                  aria-describedby={ids.describedBy}
                  placeholder="https://… (a public URL)"
                  value={draft}
                  onChange={(event) => setDraft(event.target.value)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && !event.metaKey && !event.ctrlKey) {
                      event.preventDefault();
                      addDraft();
                    }
                  }}
                  className={inputClasses(Boolean(draftProblem), 'h-9')}
                />
                <Button variant="secondary" size="sm" className="h-9" onClick={addDraft}>
                  Add
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  className="h-9 whitespace-nowrap"
                  aria-expanded={picking}
                  onClick={() => setPicking(!picking)}
                >
                  From your files
                </Button>
              </div>
              {draftProblem && (
                <p className="text-xs font-medium text-red-700 dark:text-red-400">{draftProblem}</p>
              )}
              {picking && (
                <LazyOutputPicker
                  initialKind={accepted}
                  onPick={(url) => {
                    add(url);
                    if (spec.maxItems !== undefined && fields.length + 1 >= spec.maxItems) setPicking(false);
                  }}
                />
              )}
            </div>
          )}
        </UploadControl>
      )}
    </FieldsetShell>
  );
}
