import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { TeamRole } from '../../../../contract/account.ts';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from './team-permissions.ts';

/** Roles as radio buttons, each with what it allows (arrow keys move between them). */
export function RoleChoice({
  legend,
  roles,
  register,
}: {
  legend: string;
  roles: readonly TeamRole[];
  register: UseFormRegisterReturn;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      {roles.map((role) => (
        <label
          key={role}
          htmlFor={`${id}-${role}`}
          className="flex cursor-pointer gap-3 rounded-lg border border-zinc-200 px-3 py-2.5 text-sm has-checked:border-zinc-900 has-checked:bg-zinc-50 dark:border-zinc-700 dark:has-checked:border-zinc-300 dark:has-checked:bg-zinc-800/60"
        >
          <input
            id={`${id}-${role}`}
            type="radio"
            value={role}
            className="mt-0.5 accent-zinc-900 dark:accent-zinc-100"
            aria-describedby={`${id}-${role}-hint`}
            {...register}
          />
          <span>
            <span className="block font-medium">{ROLE_LABELS[role]}</span>
            <span id={`${id}-${role}-hint`} className="block text-xs text-zinc-600 dark:text-zinc-400">
              {ROLE_DESCRIPTIONS[role]}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
