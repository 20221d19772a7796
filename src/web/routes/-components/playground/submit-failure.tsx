import { Link } from '@tanstack/react-router';
import { ApiError } from '../../../../client/api-error.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { asSentence } from '../../../format/sentence.ts';
import { fieldProblems } from '../../../schema-form/server-field-errors.ts';

/** The model a `model_retired` refusal names to use instead, if any. */
export function retiredReplacement(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'model_retired') return null;
  const details = error.details as { replacement?: unknown } | null | undefined;
  return typeof details?.replacement === 'string' && details.replacement ? details.replacement : null;
}

/** What a 402 `spend_limit_exceeded` says in words: what is left, when it resets (in the browser's clock), which limit. */
export function spendLimitNote(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'spend_limit_exceeded') return null;
  const d = error.details as
    | { remaining?: unknown; resets_at?: unknown; budget_id?: unknown; limit?: unknown; period?: unknown }
    | null
    | undefined;
  if (typeof d?.resets_at !== 'string') return null;
  const when = new Date(d.resets_at).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const which = d.budget_id ? 'The budget' : "This key's limit";
  return `${which} (${d.limit} credits a ${d.period}) has ${d.remaining} left and resets ${when}.`;
}

/** Worth sending again as the same attempt: the server may not have seen it, or was briefly unable. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 409 || error.status === 429 || error.status >= 500;
}

function titleOf(error: unknown): string {
  if (!(error instanceof ApiError)) return 'The run could not be started';
  if (error.status === 0) return 'The server could not be reached';
  if (error.code === 'insufficient_balance') return 'Not enough credits';
  if (error.code === 'spend_limit_exceeded') return 'A spend limit stopped this run';
  if (error.code === 'model_retired') return 'This model has been retired';
  if (error.status === 422) return 'Some inputs need attention';
  if (error.code === 'provider_unavailable') return 'This model cannot run on this server';
  if (error.status === 429) return 'Too many requests';
  if (error.status >= 500) return 'The server could not start the run';
  return 'The run was refused';
}

interface SubmitFailureProps {
  error: unknown;
  onRetry: () => void;
  /** The label the form shows for a request field (`prompt` → "Prompt"). */
  labelOf: (field: string) => string;
  /** Continue with another model, keeping what was typed (a retired model's replacement). */
  onUseModel?: (model: string) => void;
}

/**
 * Why a submission failed, with the request id to quote; retryable failures retry the same attempt.
 * Refused fields are named by their labels, one line each, not by the server's `prompt: …` summary.
 */
export function SubmitFailure({ error, onRetry, labelOf, onUseModel }: SubmitFailureProps) {
  const replacement = retiredReplacement(error);
  const requestId = error instanceof ApiError ? error.requestId : null;
  const wait = error instanceof ApiError && error.retryAfter ? ` Try again in ${error.retryAfter} s.` : '';
  const problems = fieldProblems(error);
  return (
    <Alert tone="error" title={titleOf(error)}>
      {problems ? (
        <ul className="flex flex-col gap-0.5">
          {problems.map((problem) => (
            <li key={`${problem.field}:${problem.message}`}>
              <span className="font-medium">{labelOf(problem.field)}:</span> {asSentence(problem.message)}
            </li>
          ))}
        </ul>
      ) : (
        <p>
          {error instanceof Error ? error.message : String(error)}
          {wait}
        </p>
      )}
      {spendLimitNote(error) && (
        <p className="mt-1">
          {spendLimitNote(error)}{' '}
          {(error as ApiError & { details: { budget_id?: unknown } }).details.budget_id ? (
            <Link to="/budgets" className="font-medium underline">
              See budgets
            </Link>
          ) : (
            'An owner or manager of the team can raise it.'
          )}
        </p>
      )}
      {requestId && (
        <p className="mt-1 text-xs">
          Request id <code className="font-mono select-all">{requestId}</code>
        </p>
      )}
      {replacement && onUseModel && (
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => onUseModel(replacement)}>
          Use {replacement} instead
        </Button>
      )}
      {isRetryable(error) && (
        <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
