/**
 * Puts a field's name in front of a schema message written as a predicate ("must be an email
 * address" → "Email must be an email address."); full sentences pass through unchanged.
 */
export function fieldMessage(label: string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  if (/^[a-z]/.test(message)) return `${label} ${message}${message.endsWith('.') ? '' : '.'}`;
  return message;
}
