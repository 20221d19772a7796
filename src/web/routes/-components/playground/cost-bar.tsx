import { formatCredits, formatCreditsAndDollars } from '../../../format/credits.ts';
import { formatUnitPrice } from '../../../format/price.ts';
import { formatQuantity, pluralize } from '../../../format/words.ts';
import type { BodyProblem } from '../../../schema-form/form-validation.ts';
import type { CostEstimate, PipelineCostEstimate } from './cost-estimate.ts';

/** The units the estimate counts, in words with plural rules: "6 characters", "2 images", "a typical request". */
function unitsText(estimate: CostEstimate): string {
  const { unit } = estimate.provider;
  if (estimate.fromForm || unit === 'image' || unit === 'job') return formatQuantity(unit, estimate.units);
  return `a typical ${unit === 'minute' ? 'length' : 'request'}`;
}

/** "sketch 1 + bigger 2 credits": a pipeline's estimate is its steps', each named. */
function stepsText(estimate: PipelineCostEstimate): string {
  const parts = estimate.steps.map(
    (step) => `${step.id} ${step.cents === null ? 'no price here' : step.cents}`,
  );
  return `Sum of the steps: ${parts.join(' + ')}`;
}

interface CostBarProps {
  estimate: CostEstimate | PipelineCostEstimate | null;
  /** How long the run is expected to take, in the words of runTimeText; null while unknown. */
  runTime?: string | null;
  balance: number;
  unavailableReason: string | null;
  /** What the schema refuses in the form as it is: no price until it is a request that can run. */
  invalid: readonly BodyProblem[] | null;
}

/** Why there is no estimate while the form cannot be sent. */
function invalidText(problems: readonly BodyProblem[]): string {
  if (problems.every((problem) => problem.message === 'Required.')) {
    return 'The estimate appears once the required fields are filled in.';
  }
  return `No estimate while ${pluralize(problems.length, 'field needs', 'fields need')} attention.`;
}

/** The price of this run before it is sent, and the balance it comes out of. */
export function CostBar({ estimate, runTime = null, balance, unavailableReason, invalid }: CostBarProps) {
  const short = estimate !== null && estimate.cents > balance;
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 text-sm">
      {estimate ? (
        <p>
          <span className="text-zinc-600 dark:text-zinc-400">Estimated cost </span>
          <span className="font-semibold tabular-nums" data-testid="cost-estimate">
            {formatCreditsAndDollars(estimate.cents)}
          </span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            {'steps' in estimate ? (
              stepsText(estimate)
            ) : (
              <>
                {unitsText(estimate)} ×{' '}
                {formatUnitPrice(estimate.provider.unit_price_cents, estimate.provider.unit)} on{' '}
                {estimate.provider.provider}
              </>
            )}
          </span>
          {runTime && (
            <span className="block text-xs text-zinc-600 dark:text-zinc-400" data-testid="run-time-estimate">
              Run time: {runTime}
            </span>
          )}
        </p>
      ) : (
        <p className="text-zinc-600 dark:text-zinc-400" data-testid="cost-missing">
          {unavailableReason ?? (invalid ? invalidText(invalid) : 'No price for this model here.')}
        </p>
      )}
      <p
        className={short ? 'font-medium text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}
      >
        Balance <span className="tabular-nums">{formatCredits(balance)}</span>
        {short && ' · not enough for this run'}
      </p>
    </div>
  );
}
