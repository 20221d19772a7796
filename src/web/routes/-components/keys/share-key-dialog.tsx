import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { type ApiKey, SHARES_PER_KEY_MAX, type ShareEntry } from '../../../../contract/api-keys.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { apiKeySharesQueryOptions, useRemoveApiKeyShare, useShareApiKey } from '../../../queries/api-keys.ts';
import { ShareForm } from './email-chips.ts';
import { EmailChipsInput } from './email-chips-input.tsx';
import { PersonAvatar } from './person-avatar.tsx';
import { personName } from './person-name.ts';

interface Outcome {
  added: number;
  notFound: string[];
}

/**
 * Shares a key with colleagues by email, and lists and ends its shares. Addresses with no account come
 * back from the server and are shown, since nothing was shared with them.
 */
export function ShareKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const formId = useId();
  const shares = useQuery(apiKeySharesQueryOptions(apiKey.id));
  const share = useShareApiKey(apiKey.id);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm({ resolver: zodResolver(ShareForm), defaultValues: { emails: [] as string[] } });

  const onSubmit = form.handleSubmit(async ({ emails }) => {
    setOutcome(null);
    const before = shares.data?.shares.length ?? 0;
    try {
      const answer = await share.mutateAsync(emails);
      setOutcome({ added: Math.max(0, answer.shares.length - before), notFound: answer.not_found });
      form.reset({ emails: [] });
    } catch {
      // Shown below from the mutation's error.
    }
  });

  const count = shares.data?.shares.length;
  return (
    <ModalDialog
      size="lg"
      title={`Share “${apiKey.name}”`}
      description="People you share a key with can use it and, when it is revealable, show it again. They need an account: ask them to sign in once first."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" form={formId} pending={share.isPending}>
            Share
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-6">
        <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
          <Controller
            control={form.control}
            name="emails"
            render={({ field, fieldState }) => (
              <EmailChipsInput
                label="Email addresses"
                value={field.value}
                onChange={(emails) => {
                  field.onChange(emails);
                  setOutcome(null);
                }}
                error={fieldState.error?.message ?? fieldState.error?.root?.message}
              />
            )}
          />
          {outcome && <ShareOutcome outcome={outcome} />}
          {share.error && <Alert tone="error">{errorMessage(share.error)}</Alert>}
        </form>

        <section aria-labelledby={`${formId}-shares`}>
          <h3 id={`${formId}-shares`} className="text-sm font-semibold">
            Shared with{count === undefined ? '' : ` (${count} of ${SHARES_PER_KEY_MAX})`}
          </h3>
          {shares.isPending ? (
            <LoadingNote className="mt-2">Loading…</LoadingNote>
          ) : shares.isError ? (
            <Alert tone="error" className="mt-2">
              {errorMessage(shares.error)}
            </Alert>
          ) : shares.data.shares.length === 0 ? (
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Nobody yet.</p>
          ) : (
            <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
              {shares.data.shares.map((entry) => (
                <ShareRow key={entry.user_id} keyId={apiKey.id} entry={entry} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </ModalDialog>
  );
}

function ShareOutcome({ outcome }: { outcome: Outcome }) {
  return (
    <div className="flex flex-col gap-2">
      {outcome.added > 0 && (
        <Alert tone="success">
          Shared with {outcome.added} {outcome.added === 1 ? 'person' : 'people'}.
        </Alert>
      )}
      {outcome.notFound.length > 0 && (
        <Alert tone="error" title="No account for these addresses">
          <p>Nothing was shared with them. They can sign in once to get an account; then share again.</p>
          <ul className="mt-1 list-disc pl-5 font-mono text-xs">
            {outcome.notFound.map((email) => (
              <li key={email} className="break-all">
                {email}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {outcome.added === 0 && outcome.notFound.length === 0 && (
        <Alert>Everyone you named already has this key.</Alert>
      )}
    </div>
  );
}

function ShareRow({ keyId, entry }: { keyId: string; entry: ShareEntry }) {
  const remove = useRemoveApiKeyShare(keyId);
  const name = personName(entry);
  return (
    <li className="flex items-center gap-3 py-2.5">
      <PersonAvatar person={entry} />
      <div className="min-w-0 flex-1 text-sm">
        <p className="truncate font-medium">{name}</p>
        <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">
          {name === entry.email ? '' : `${entry.email} · `}shared {formatDateTime(entry.shared_at)}
        </p>
        {remove.error && (
          <p role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
            {errorMessage(remove.error)}
          </p>
        )}
      </div>
      <Button
        variant="ghost"
        size="sm"
        pending={remove.isPending}
        onClick={() => remove.mutate(entry.user_id)}
        aria-label={`Remove ${name}`}
      >
        Remove
      </Button>
    </li>
  );
}
