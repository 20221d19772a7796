/** A server's message as a sentence: "prompt or files is required" → "Prompt or files is required." */
export function asSentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
