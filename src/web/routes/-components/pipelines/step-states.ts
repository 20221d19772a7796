import type { Job } from '../../../../contract/jobs.ts';
import { PipelineStepState } from '../../../../contract/pipeline-graph.ts';

/** The step states a pipeline job shows; what does not parse (an older server) is left out. */
export function stepStatesOf(job: Pick<Job, 'progress_metadata'>): PipelineStepState[] {
  const steps = (job.progress_metadata as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((step) => {
    const parsed = PipelineStepState.safeParse(step);
    return parsed.success ? [parsed.data] : [];
  });
}
