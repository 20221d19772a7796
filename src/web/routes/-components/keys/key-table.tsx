import type { ApiKey } from '../../../../contract/api-keys.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { keyAbilities, keyPreview } from './key-preview.ts';
import { KeyRestrictionBadges } from './key-restriction-badges.tsx';
import { PersonAvatar } from './person-avatar.tsx';
import { personName } from './person-name.ts';
import { SharedWith } from './shared-with.tsx';

export type KeyAction = 'reveal' | 'edit' | 'rotate' | 'share' | 'log' | 'revoke' | 'leave';

interface KeyTableProps {
  keys: readonly ApiKey[];
  onAction: (action: KeyAction, key: ApiKey) => void;
}

/** The keys the caller sees, with what they may do to each (the server checks again). */
export function KeyTable({ keys, onAction }: KeyTableProps) {
  return (
    <DataTable
      caption="API keys"
      minWidth="min-w-[52rem]"
      headings={
        <>
          <ColumnHeading>Name</ColumnHeading>
          <ColumnHeading>Key</ColumnHeading>
          <ColumnHeading>Owner</ColumnHeading>
          <ColumnHeading>Created</ColumnHeading>
          <ColumnHeading>Last used</ColumnHeading>
          <ColumnHeading>Shared with</ColumnHeading>
          <ColumnHeading>
            <span className="sr-only">Actions</span>
          </ColumnHeading>
        </>
      }
    >
      {keys.map((key) => (
        <KeyRow key={key.id} apiKey={key} onAction={onAction} />
      ))}
    </DataTable>
  );
}

function KeyRow({ apiKey, onAction }: { apiKey: ApiKey; onAction: KeyTableProps['onAction'] }) {
  const can = keyAbilities(apiKey);
  const action = (kind: KeyAction, label: string, variant: 'ghost' | 'danger' = 'ghost') => (
    <Button
      variant={variant === 'danger' ? 'danger-ghost' : 'ghost'}
      size="sm"
      onClick={() => onAction(kind, apiKey)}
      aria-label={`${label} ${apiKey.name}`}
    >
      {label}
    </Button>
  );
  return (
    <tr>
      <th scope="row" className={`${TABLE_CELL} text-left font-medium`}>
        <span className="block max-w-48 truncate" title={apiKey.name}>
          {apiKey.name}
        </span>
        {apiKey.relation === 'shared' && (
          <span className="block text-xs font-normal whitespace-nowrap text-zinc-600 dark:text-zinc-400">
            Shared with you
          </span>
        )}
        {apiKey.revoked_at && (
          <span className="block text-xs font-medium whitespace-nowrap text-red-700 dark:text-red-400">
            Revoked <time dateTime={apiKey.revoked_at}>{formatDateTime(apiKey.revoked_at)}</time>
          </span>
        )}
        <KeyRestrictionBadges apiKey={apiKey} />
      </th>
      {/* Whether it can be shown again sits under the key itself: a column of its own left too little room
          for the actions at laptop widths. */}
      <td className={TABLE_CELL}>
        <span className="block font-mono text-xs whitespace-nowrap">{keyPreview(apiKey)}</span>
        <span className="mt-1 block">
          {apiKey.revealable ? (
            <Badge tone="success">Revealable</Badge>
          ) : (
            <Badge tone="muted">Shown once</Badge>
          )}
        </span>
      </td>
      <td className={TABLE_CELL}>
        {apiKey.owner ? (
          <span className="flex items-center gap-2">
            <PersonAvatar person={apiKey.owner} />
            <span className="max-w-40 truncate" title={apiKey.owner.email}>
              {personName(apiKey.owner)}
            </span>
          </span>
        ) : (
          <span className="text-zinc-600 dark:text-zinc-400">The team</span>
        )}
      </td>
      <td className={`${TABLE_CELL} whitespace-nowrap`}>
        <time dateTime={apiKey.created_at} title={formatDateTime(apiKey.created_at)}>
          {formatRelativeTime(apiKey.created_at)}
        </time>
      </td>
      <td className={`${TABLE_CELL} whitespace-nowrap`}>
        {apiKey.last_used_at ? (
          <time dateTime={apiKey.last_used_at} title={formatDateTime(apiKey.last_used_at)}>
            {formatRelativeTime(apiKey.last_used_at)}
          </time>
        ) : (
          <span className="text-zinc-500 dark:text-zinc-400">Never</span>
        )}
      </td>
      <td className={TABLE_CELL}>
        <SharedWith apiKey={apiKey} />
      </td>
      <td className={`${TABLE_CELL} text-right`}>
        {/* Wrapped lines rather than a table wider than the page when a key has every action. */}
        <div className="ml-auto flex max-w-64 flex-wrap justify-end gap-1 whitespace-nowrap">
          {can.reveal && action('reveal', 'Reveal')}
          {can.edit && action('edit', 'Edit')}
          {can.edit && action('rotate', 'Rotate')}
          {can.share && action('share', 'Share')}
          {can.readLog && action('log', 'Reveal log')}
          {can.revoke && action('revoke', 'Revoke', 'danger')}
          {can.leave && action('leave', 'Give back', 'danger')}
        </div>
      </td>
    </tr>
  );
}
