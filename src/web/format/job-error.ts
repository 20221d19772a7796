import { asSentence } from './sentence.ts';

/** What a person reads about a job's error: a title in plain words, and what to know beside it. */
export interface JobErrorWords {
  title: string;
  /** The provider's or server's message, or our sentence where theirs would be technical. */
  detail: string | null;
}

/**
 * The one home of the words for a job's error codes (drawer, feed, playground, toasts). Codes with their
 * own sentence are those a person can act on; any other code is worded from itself ("provider_error" →
 * "Provider error") with the server's message as the detail.
 */
export function jobErrorWords(error: { code: string; message: string }): JobErrorWords {
  switch (error.code) {
    case 'content_policy_violation':
      // The provider's own message says what it objected to: it is the detail.
      return { title: 'The provider refused this prompt', detail: providerMessage(error.message) };
    case 'provider_timeout':
      return {
        title: 'The provider took too long',
        detail:
          'It did not finish in the time allowed, so it was stopped at the provider. You can run it again.',
      };
    case 'provider_submit_unknown':
      return {
        title: 'We could not tell whether the provider received this job',
        detail: 'It was not sent a second time, and nothing was charged. Run it again.',
      };
    default:
      return { title: titleFromCode(error.code), detail: providerMessage(error.message) };
  }
}

function providerMessage(message: string): string | null {
  return message.trim() ? asSentence(message.trim()) : null;
}

/** "Provider rate limited" for `provider_rate_limited`: the code stays readable in the API, the words here. */
function titleFromCode(code: string): string {
  const words = code.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
