import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

export interface ApiJob {
  id: string;
  status: string;
  output: { outputs: Array<{ file_id: string | null; media_type: string }> } | null;
}

/** The console's session token, for calling the API as the signed-in person. */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  if (!token) throw new Error('not signed in');
  return token;
}

/** Creates a job through the API (as a script would) and waits until it has finished. */
export async function runJobThroughApi(
  page: Page,
  tool: string,
  body: Record<string, unknown>,
): Promise<ApiJob> {
  const headers = { authorization: `Bearer ${await sessionToken(page)}` };
  const created = await page.request.post(`/v2/tools/${tool}/call`, {
    headers: { ...headers, 'idempotency-key': randomUUID() },
    data: body,
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = (await created.json()) as ApiJob;
  let job: ApiJob | null = null;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/v2/jobs/${id}`, { headers });
        job = (await response.json()) as ApiJob;
        return job.status;
      },
      { timeout: 60_000, message: `job ${id} to finish` },
    )
    .toMatch(/^(completed|failed|cancelled)$/);
  return job as unknown as ApiJob;
}
