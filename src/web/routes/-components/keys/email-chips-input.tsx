import { type ClipboardEvent, type KeyboardEvent, useId, useState } from 'react';
import { SHARE_EMAILS_MAX } from '../../../../contract/api-keys.ts';
import { cx } from '../../../components/cx.ts';
import { addEmails, emailProblem, splitEmails } from './email-chips.ts';

interface EmailChipsInputProps {
  label: string;
  value: readonly string[];
  onChange: (emails: string[]) => void;
  /** The form's message about the whole list (none, too many, some invalid). */
  error?: string;
  disabled?: boolean;
}

/**
 * Email addresses as chips. Enter, comma, semicolon, space or leaving the box turns the text into chips;
 * a pasted list splits into chips. Each chip is checked at once and says what is wrong with it. Backspace
 * in an empty box removes the last chip, and every chip has its own remove button.
 */
export function EmailChipsInput({ label, value, onChange, error, disabled }: EmailChipsInputProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemsId = `${id}-problems`;
  const [draft, setDraft] = useState('');

  const commit = (text: string) => {
    const typed = splitEmails(text);
    if (typed.length === 0) {
      setDraft('');
      return;
    }
    const { chips, leftOver } = addEmails(value, typed);
    if (chips.length !== value.length) onChange(chips);
    setDraft(leftOver.join(', '));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',' || event.key === ';' || event.key === ' ') {
      // Enter with nothing typed submits the form; otherwise it makes a chip.
      if (event.key === 'Enter' && draft.trim() === '') return;
      event.preventDefault();
      commit(draft);
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      event.preventDefault();
      onChange(value.slice(0, -1));
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (splitEmails(text).length < 2) return;
    event.preventDefault();
    commit(`${draft} ${text}`);
  };

  const problems = value
    .map((email) => ({ email, problem: emailProblem(email) }))
    .filter((entry): entry is { email: string; problem: string } => entry.problem !== null);
  const full = value.length >= SHARE_EMAILS_MAX;
  const describedBy = [hintId, problems.length > 0 ? problemsId : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div
        className={cx(
          'flex min-h-10 flex-wrap items-center gap-1.5 rounded-lg border bg-white px-2 py-1.5 shadow-sm focus-within:outline-2 dark:bg-zinc-900',
          error || problems.length > 0
            ? 'border-red-500 focus-within:outline-red-500 dark:border-red-400'
            : 'border-zinc-300 dark:border-zinc-700',
        )}
      >
        {value.length > 0 && (
          <ul aria-label="Addresses to share with" className="contents">
            {value.map((email) => (
              <EmailChip
                key={email}
                email={email}
                problem={emailProblem(email)}
                disabled={disabled}
                onRemove={() => {
                  onChange(value.filter((chip) => chip !== email));
                  // The removed chip's button had focus: the text box takes it.
                  document.getElementById(id)?.focus();
                }}
              />
            ))}
          </ul>
        )}
        <input
          id={id}
          type="text"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          value={draft}
          disabled={disabled}
          aria-invalid={error || problems.length > 0 ? true : undefined}
          aria-describedby={describedBy}
          placeholder={value.length === 0 ? 'name@example.com, another@example.com' : ''}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => commit(draft)}
          data-autofocus
          className="h-7 min-w-40 flex-1 border-0 bg-transparent px-1 text-sm text-zinc-900 placeholder:text-zinc-400 focus:outline-none dark:text-zinc-100 dark:placeholder:text-zinc-500"
        />
      </div>
      <p id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
        {full
          ? `That is the most for one request (${SHARE_EMAILS_MAX}); share more after this.`
          : `Up to ${SHARE_EMAILS_MAX} addresses; separate them with commas, spaces or Enter. ${value.length} added.`}
      </p>
      {problems.length > 0 && (
        <ul id={problemsId} className="text-xs font-medium text-red-700 dark:text-red-400">
          {problems.map(({ email, problem }) => (
            <li key={email}>
              <span className="font-mono break-all">{email}</span>: {problem}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function EmailChip({
  email,
  problem,
  disabled,
  onRemove,
}: {
  email: string;
  problem: string | null;
  disabled?: boolean;
  onRemove: () => void;
}) {
  return (
    <li
      className={cx(
        'inline-flex max-w-full items-center gap-1 rounded-full py-0.5 pr-1 pl-2.5 text-xs font-medium ring-1 ring-inset',
        problem
          ? 'bg-red-50 text-red-800 ring-red-300 dark:bg-red-950/50 dark:text-red-200 dark:ring-red-900'
          : 'bg-zinc-100 text-zinc-800 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-700',
      )}
    >
      <span className="truncate">{email}</span>
      {problem && <span className="sr-only">(invalid: {problem})</span>}
      <button
        type="button"
        disabled={disabled}
        onClick={onRemove}
        className="grid size-5 place-items-center rounded-full hover:bg-black/10 dark:hover:bg-white/10"
      >
        <span className="sr-only">Remove {email}</span>
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor">
          <path d="M4 4l8 8M12 4l-8 8" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
    </li>
  );
}
