import { useSuspenseQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import type { ApiKey } from '../../../../contract/api-keys.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { apiKeysQueryOptions } from '../../../queries/api-keys.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { keysPageSeen } from '../get-started/get-started-progress.ts';
import { ConnectTools } from './connect-tools.tsx';
import { CreateKeyDialog } from './create-key-dialog.tsx';
import { EditKeyDialog } from './edit-key-dialog.tsx';
import { type KeyAction, KeyTable } from './key-table.tsx';
import { keysOfTeam } from './keys-of-team.ts';
import { LeaveShareDialog } from './leave-share-dialog.tsx';
import { RevealKeyDialog } from './reveal-key-dialog.tsx';
import { RevealLogDialog } from './reveal-log-dialog.tsx';
import { RevokeKeyDialog } from './revoke-key-dialog.tsx';
import { RotateKeyDialog } from './rotate-key-dialog.tsx';
import { ShareKeyDialog } from './share-key-dialog.tsx';

type OpenDialog = { kind: 'create' } | { kind: KeyAction; key: ApiKey } | null;

/** The Keys page: the table, and one dialog at a time (each returns focus to the button that opened it). */
export function KeysPage({ includeRevoked }: { includeRevoked: boolean }) {
  const { data: allKeys } = useSuspenseQuery(apiKeysQueryOptions(includeRevoked));
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const keys = keysOfTeam(allKeys, me);
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = () => setOpen(null);
  // "Get started": the key has been found.
  useEffect(() => keysPageSeen.set(true), []);

  const createButton = <Button onClick={() => setOpen({ kind: 'create' })}>Create key</Button>;
  return (
    <>
      <PageHeader
        title="Keys"
        description={`API keys of ${me.team.name} and keys shared with you. A key acts for its team; revoking it stops it at once.`}
        actions={createButton}
      />
      <RevokedToggle />
      {keys.length === 0 ? (
        <EmptyState title="No API keys" action={createButton}>
          Create a key to call the API from scripts, CI or another app.
        </EmptyState>
      ) : (
        <KeyTable keys={keys} onAction={(kind, key) => setOpen({ kind, key })} />
      )}
      <ConnectTools />
      {open?.kind === 'create' && (
        <CreateKeyDialog onClose={close} canMakeServiceKey={me.role === 'owner' || me.role === 'manager'} />
      )}
      {open?.kind === 'edit' && <EditKeyDialog apiKey={open.key} onClose={close} />}
      {open?.kind === 'rotate' && <RotateKeyDialog apiKey={open.key} onClose={close} />}
      {open?.kind === 'reveal' && <RevealKeyDialog apiKey={open.key} onClose={close} />}
      {open?.kind === 'share' && <ShareKeyDialog apiKey={open.key} onClose={close} />}
      {open?.kind === 'log' && <RevealLogDialog apiKey={open.key} onClose={close} />}
      {open?.kind === 'revoke' && <RevokeKeyDialog apiKey={open.key} onClose={close} />}
      {open?.kind === 'leave' && me.person && (
        <LeaveShareDialog apiKey={open.key} userId={me.person.id} onClose={close} />
      )}
    </>
  );
}

/**
 * Revoked keys stay out of the way unless asked for; the choice lives in the URL. The box follows the
 * location being navigated to, not the loaded page, so it answers the click at once while the longer list
 * loads (it stayed unchecked until then, and a quick second click undid the first).
 */
function RevokedToggle() {
  const id = useId();
  const navigate = useNavigate();
  const checked = useLocation({ select: (l) => (l.search as { revoked?: unknown }).revoked === true });
  return (
    <div className="mb-4 flex items-center gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) =>
          void navigate({ to: '/keys', search: event.target.checked ? { revoked: true } : {} })
        }
        className="size-4 rounded border-zinc-300 accent-zinc-900 dark:border-zinc-600 dark:accent-zinc-100"
      />
      <label htmlFor={id} className="text-zinc-700 dark:text-zinc-300">
        Show revoked keys
      </label>
    </div>
  );
}
