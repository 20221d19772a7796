import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { jobQueryOptions } from '../../../queries/jobs.ts';
import { setPrefill } from '../playground/form-drafts.ts';

/**
 * "Re-run from here": reads the job (the lineage names only its tool and model) and opens the
 * playground on its tool and model with the form filled with the job's input, ready to run or change.
 */
export function useRerunFromJob() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function start(jobId: string) {
    setPending(jobId);
    setError(null);
    try {
      const job = await queryClient.fetchQuery(jobQueryOptions(jobId));
      setPrefill(job.tool, job.model, job.input);
      await navigate({ to: '/playground', search: { tool: job.tool, model: job.model } });
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  }

  return { start: (jobId: string) => void start(jobId), pending, error };
}
