import { createHash } from 'node:crypto';

/**
 * The id of a preset: `preset_` and 12 hex characters of a hash of what it stands for, so the same voice
 * keeps the same id across restarts and servers without being stored anywhere.
 */
export function presetId(namespace: string, type: string, value: string): string {
  const digest = createHash('sha256').update(`${namespace}\n${type}\n${value}`).digest('hex');
  return `preset_${digest.slice(0, 12)}`;
}
