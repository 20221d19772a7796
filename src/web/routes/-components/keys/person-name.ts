import type { PersonEntry } from '../../../../contract/api-keys.ts';

/** What to call a person: their display name, else their email. */
export function personName(person: Pick<PersonEntry, 'display_name' | 'email'>): string {
  return person.display_name.trim() || person.email;
}

/** Up to two letters for an avatar: the initials of the name's first two words, else of the email. */
export function initials(person: Pick<PersonEntry, 'display_name' | 'email'>): string {
  const words = person.display_name.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}`.toUpperCase();
  const word = words[0] ?? person.email.split('@')[0] ?? '';
  return word.slice(0, 2).toUpperCase() || '?';
}
