import { z } from 'zod';
import { SHARE_EMAIL_MAX_CHARS, SHARE_EMAILS_MAX, SHARE_EMAILS_MIN } from '../../../../contract/api-keys.ts';
import { Email } from '../../../../contract/common.ts';

/* The logic of the share dialog's email chips: what separates addresses, what makes one valid. */

/** Commas, semicolons and any whitespace separate addresses (a pasted list from a mail client works). */
const SEPARATORS = /[\s,;]+/;

export function splitEmails(text: string): string[] {
  return text.split(SEPARATORS).filter(Boolean);
}

/** Why an address cannot be sent, as the server would judge it; null when it is fine. */
export function emailProblem(raw: string): string | null {
  if (raw.length > SHARE_EMAIL_MAX_CHARS) return `Longer than ${SHARE_EMAIL_MAX_CHARS} characters.`;
  return Email.safeParse(raw).success ? null : 'Not an email address.';
}

/**
 * Adds typed or pasted addresses to the chips: duplicates (any case) are dropped, and what would pass
 * the per-request maximum is handed back to stay in the text box rather than being lost.
 */
export function addEmails(
  chips: readonly string[],
  typed: readonly string[],
  max: number = SHARE_EMAILS_MAX,
): { chips: string[]; leftOver: string[] } {
  const next = [...chips];
  const seen = new Set(chips.map((chip) => chip.toLowerCase()));
  const leftOver: string[] = [];
  for (const email of typed) {
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    if (next.length >= max) {
      leftOver.push(email);
      continue;
    }
    seen.add(key);
    next.push(email);
  }
  return { chips: next, leftOver };
}

/** The share form: 1 to 20 valid addresses (spec 4.11), checked before anything is sent. */
export const ShareForm = z.object({
  emails: z
    .array(z.string())
    .min(SHARE_EMAILS_MIN, { message: 'Add at least one email address.' })
    .max(SHARE_EMAILS_MAX, { message: `At most ${SHARE_EMAILS_MAX} addresses at a time.` })
    .refine((emails) => emails.every((email) => emailProblem(email) === null), {
      message: 'Fix or remove the addresses marked invalid.',
    }),
});
