import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../../../client/api-error.ts';
import type { ToolKey } from '../../../../contract/common.ts';
import { TOOL_KEYS } from '../../../../contract/values.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { usePublishTemplate } from '../../../queries/templates.ts';

/** What a new template starts from: a working render with one variable, to be changed. */
const EXAMPLE_REQUEST = {
  width: 1080,
  height: 1080,
  duration: 1,
  format: 'png',
  background: '#1e3a8a',
  layers: [{ type: 'text', text: '{{headline}}', y: 500, font_size: 72 }],
};
const EXAMPLE_VARIABLES = [{ name: 'headline', label: 'Headline', type: 'text' }];

const TEXTAREA =
  'min-h-40 w-full rounded-lg border border-zinc-300 bg-white p-2.5 font-mono text-xs text-zinc-900 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not valid JSON.`);
  }
}

/** Why the server refused, with the fields it named (a 422 lists them). */
function refusalOf(error: unknown): string {
  if (!(error instanceof ApiError))
    return error instanceof Error ? error.message : 'The template was not published.';
  const fields =
    (error.details as { fields?: Array<{ field: string; message: string }> } | null)?.fields ?? [];
  return fields.length ? fields.map((f) => `${f.field}: ${f.message}`).join('; ') : error.message;
}

/**
 * Publishing one's own template: a tool's request with `{{variables}}`, and the variables it declares
 * (text, image, audio, video or choice). It starts pending; the team sees and renders it meanwhile.
 */
export function PublishTemplateDialog({ onClose }: { onClose: () => void }) {
  const publish = usePublishTemplate();
  const navigate = useNavigate();
  const formId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [tool, setTool] = useState<ToolKey>('render');
  const [request, setRequest] = useState(JSON.stringify(EXAMPLE_REQUEST, null, 2));
  const [variables, setVariables] = useState(JSON.stringify(EXAMPLE_VARIABLES, null, 2));
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      const created = await publish.mutateAsync({
        name,
        description,
        tags: tags
          .split(',')
          .map((t) => t.trim().toLowerCase())
          .filter(Boolean),
        tool,
        request: parseJson(request, 'The request') as Record<string, unknown>,
        variables: parseJson(variables, 'The variables') as never,
      });
      showToast({ tone: 'success', title: `${created.name} is published and waits for approval.` });
      onClose();
      void navigate({ to: '/templates/$templateId', params: { templateId: created.id } });
    } catch (error) {
      setProblem(refusalOf(error));
    }
  }

  return (
    <ModalDialog
      title="Publish a template"
      description="It is listed for everyone once an operator approves it; your team can render it at once."
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} pending={publish.isPending}>
            Publish
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={100}
        />
        <TextField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField
          label="Tags"
          hint="Comma-separated, lower case: social, title"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
        />
        <LabelledField label="Tool">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={tool}
              onChange={(e) => setTool(e.target.value as ToolKey)}
            >
              {TOOL_KEYS.map((key) => (
                <option key={key} value={key}>
                  {key}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <LabelledField label="Request (JSON, with {{variable}} placeholders)">
          {(id) => (
            <textarea
              id={id}
              className={TEXTAREA}
              spellCheck={false}
              value={request}
              onChange={(e) => setRequest(e.target.value)}
            />
          )}
        </LabelledField>
        <LabelledField label="Variables (JSON: name, label, type text | image | audio | video | choice, choices)">
          {(id) => (
            <textarea
              id={id}
              className={TEXTAREA}
              spellCheck={false}
              value={variables}
              onChange={(e) => setVariables(e.target.value)}
            />
          )}
        </LabelledField>
        {problem && <Alert tone="error">{problem}</Alert>}
      </form>
    </ModalDialog>
  );
}
