import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { checkServer, type ServerCheck } from '../../../api/check-server.ts';
import {
  DEFAULT_SERVER_SETTINGS,
  defaultBaseUrl,
  type ServerSettings,
  serverSettingsStore,
  useServerSettings,
} from '../../../api/server-settings.ts';
import { ServerSettingsForm as ServerSettingsSchema } from '../../../api/server-settings-form.ts';
import { currentSession } from '../../../auth/session.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { fieldMessage } from '../../../components/field-message.ts';
import { TextField } from '../../../components/text-field.tsx';

interface ServerSettingsFormProps {
  /** Called after the settings were saved or reset (routes re-check their guards). */
  onSaved?: (settings: ServerSettings) => void | Promise<void>;
}

type Outcome = { kind: 'checked' | 'saved'; check: ServerCheck } | { kind: 'reset' } | null;

/** Base URL and optional API key of the v2 server the console talks to, tried before they are saved. */
export function ServerSettingsForm({ onSaved }: ServerSettingsFormProps) {
  const queryClient = useQueryClient();
  const saved = useServerSettings();
  const form = useForm({
    resolver: zodResolver(ServerSettingsSchema),
    defaultValues: { baseUrl: saved.baseUrl ?? defaultBaseUrl(), apiKey: saved.apiKey ?? '' },
  });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [testing, setTesting] = useState(false);

  async function apply(next: ServerSettings) {
    serverSettingsStore.set(next);
    // Everything cached came from the previous server or credentials: drop what is not on screen,
    // refetch what is.
    queryClient.removeQueries({ type: 'inactive' });
    await queryClient.invalidateQueries({ type: 'active' });
    await onSaved?.(next);
  }

  const onSave = form.handleSubmit(async (values) => {
    setOutcome(null);
    const check = await checkServer(values, currentSession()?.token ?? null);
    if (!check.ok) {
      setOutcome({ kind: 'checked', check });
      return;
    }
    await apply({
      baseUrl: values.baseUrl === defaultBaseUrl() ? null : values.baseUrl,
      apiKey: values.apiKey,
    });
    form.reset({ baseUrl: values.baseUrl, apiKey: values.apiKey ?? '' });
    setOutcome({ kind: 'saved', check });
  });

  const onTest = form.handleSubmit(async (values) => {
    setOutcome(null);
    setTesting(true);
    try {
      setOutcome({ kind: 'checked', check: await checkServer(values, currentSession()?.token ?? null) });
    } finally {
      setTesting(false);
    }
  });

  async function onReset() {
    setOutcome(null);
    form.reset({ baseUrl: defaultBaseUrl(), apiKey: '' });
    await apply(DEFAULT_SERVER_SETTINGS);
    setOutcome({ kind: 'reset' });
  }

  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSave} noValidate className="flex flex-col gap-5">
      <TextField
        label="Base URL"
        type="url"
        inputMode="url"
        autoComplete="url"
        spellCheck={false}
        hint={`The server's {base_url}, ending in /v2. Default: ${defaultBaseUrl()}`}
        error={fieldMessage('The base URL', errors.baseUrl?.message)}
        {...form.register('baseUrl')}
      />
      <TextField
        label="API key (optional)"
        type="password"
        autoComplete="off"
        spellCheck={false}
        hint="When set, requests carry this key instead of your session. Signing out forgets it."
        error={fieldMessage('The API key', errors.apiKey?.message)}
        {...form.register('apiKey')}
      />
      <OutcomeMessage outcome={outcome} />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" pending={isSubmitting}>
          Test and save
        </Button>
        <Button variant="secondary" onClick={onTest} pending={testing}>
          Test connection
        </Button>
        <Button variant="ghost" onClick={onReset} className="ml-auto">
          Reset to default
        </Button>
      </div>
    </form>
  );
}

function OutcomeMessage({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if (outcome.kind === 'reset') {
    return <Alert tone="success">Back to the default server.</Alert>;
  }
  const { check } = outcome;
  if (!check.ok) return <Alert tone="error">{check.message}</Alert>;
  return (
    <Alert
      tone="success"
      title={outcome.kind === 'saved' ? 'Saved. The console now uses this server.' : 'Connection works.'}
    >
      {check.identity && <p>Signed in as {check.identity}.</p>}
      {check.note && <p>{check.note}</p>}
    </Alert>
  );
}
