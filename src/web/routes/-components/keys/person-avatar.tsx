import type { PersonEntry } from '../../../../contract/api-keys.ts';
import { cx } from '../../../components/cx.ts';
import { initials, personName } from './person-name.ts';

type Person = Pick<PersonEntry, 'display_name' | 'email' | 'avatar_url'>;

/** A person's picture, or their initials on a tint; decorative when the name is written next to it. */
export function PersonAvatar({ person, className }: { person: Person; className?: string }) {
  const base = cx(
    'inline-grid size-7 shrink-0 place-items-center overflow-hidden rounded-full text-[0.6875rem] font-semibold ring-2 ring-white dark:ring-zinc-900',
    className,
  );
  if (person.avatar_url) {
    return <img src={person.avatar_url} alt="" className={cx(base, 'object-cover')} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cx(base, 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200')}
    >
      {initials(person)}
    </span>
  );
}

const SHOWN = 4;

/** Overlapping avatars of up to four people and "+N" for the rest; the list of names is its label. */
export function AvatarStack({ people }: { people: readonly Person[] }) {
  const label = `Shared with ${people.map(personName).join(', ')}`;
  const rest = people.length - SHOWN;
  return (
    <span role="img" aria-label={label} title={label} className="flex items-center -space-x-2">
      {people.slice(0, SHOWN).map((person) => (
        <PersonAvatar key={person.email} person={person} />
      ))}
      {rest > 0 && (
        <span
          aria-hidden="true"
          className="inline-grid size-7 place-items-center rounded-full bg-zinc-200 text-[0.6875rem] font-semibold text-zinc-700 ring-2 ring-white dark:bg-zinc-700 dark:text-zinc-200 dark:ring-zinc-900"
        >
          +{rest}
        </span>
      )}
    </span>
  );
}
