/*
 * The audit log's actions as plain values (no zod): the console's search params read them in its first
 * chunk, and the schemas of contract/audit-log.ts are built from them.
 */

/**
 * Every action the log records, with the words the console and the CSV show for it. Dotted names: the part
 * before the dot is the kind of object (a filter `action=api_key.` takes them all). Some are reserved for
 * changes still being built (key edits and rotation, budgets); they are listed so the filter and the
 * document know them from the start.
 */
export const AUDIT_ACTION_LABELS = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in code refused',
  'api_key.created': 'Key created',
  'api_key.edited': 'Key edited',
  'api_key.rotated': 'Key rotated',
  'api_key.revoked': 'Key revoked',
  'api_key.revealed': 'Key revealed',
  'api_key.shared': 'Key shared',
  'api_key.unshared': 'Key sharing ended',
  'member.invited': 'Member invited',
  'member.invitation_withdrawn': 'Invitation withdrawn',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.role_changed': 'Role changed',
  'folder.visibility_changed': 'Folder visibility changed',
  'template.reviewed': 'Template reviewed',
  'credits.granted': 'Credits granted',
  'credits.adjusted': 'Credits adjusted',
  'credits.refunded': 'Job refunded',
  'budget.created': 'Budget created',
  'budget.edited': 'Budget edited',
  'budget.deleted': 'Budget deleted',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];
