import type { ApiKey } from '../../../../contract/api-keys.ts';

/** How a key is recognised without its secret: its first characters, an ellipsis, its last four. */
export function keyPreview(key: Pick<ApiKey, 'start' | 'last4'>): string {
  return `${key.start}…${key.last4}`;
}

/** What the caller may do with a key, from how they relate to it (the server checks again). */
export function keyAbilities(key: Pick<ApiKey, 'relation' | 'revealable' | 'revoked_at'>) {
  const manages = key.relation === 'owned' || key.relation === 'team';
  const live = key.revoked_at === null;
  return {
    reveal: live && key.revealable,
    share: live && manages,
    /** Edit and rotate: the owner and the team's managers, as revoke. */
    edit: live && manages,
    readLog: manages && key.revealable,
    revoke: live && manages,
    /** Someone a key is shared with may give the share back. */
    leave: live && key.relation === 'shared',
  };
}
