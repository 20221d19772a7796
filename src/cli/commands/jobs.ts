import type { Command } from 'commander';
import type { Job } from '../../contract/jobs.ts';
import { createContext, type GlobalOptions } from '../context.ts';
import { credits, table } from '../output.ts';
import { failureOf, saveOutputs, waitForJob } from '../wait.ts';

function jobLine(job: Job): string {
  const outputs = (job.output?.outputs ?? []).map((o) => o.url ?? o.media_type).join(' ');
  return [
    `${job.id}  ${job.status}  ${job.tool}  ${job.model}`,
    `created ${job.created_at}${job.completed_at ? `, ended ${job.completed_at}` : ''}`,
    `cost ${credits(job.actual_cost_cents ?? job.estimated_cost_cents)}${job.actual_cost_cents === null ? ' (estimate)' : ''}`,
    ...(job.error ? [`error: ${job.error.message} [${job.error.code}]`] : []),
    ...(outputs ? [`outputs: ${outputs}`] : []),
  ].join('\n');
}

export function registerJobCommands(program: Command, globals: () => GlobalOptions) {
  const jobs = program.command('jobs').description('List, follow, cancel and retry jobs');

  jobs
    .command('list')
    .description('Recent jobs, newest first')
    .option('--status <list>', 'comma-separated: queued, submitting, running, completed, failed, cancelled')
    .option('--tool <list>', 'comma-separated tool keys')
    .option('--limit <n>', 'how many (1 to 100)', '20')
    .option('--cursor <cursor>', 'the next page, from a previous answer')
    .action(async (options: { status?: string; tool?: string; limit: string; cursor?: string }) => {
      const ctx = createContext(globals());
      const page = await (await ctx.api()).listJobs({
        query: {
          limit: Number(options.limit),
          ...(options.status ? { status: options.status.split(',') } : {}),
          ...(options.tool ? { tool: options.tool.split(',') } : {}),
          ...(options.cursor ? { cursor: options.cursor } : {}),
        } as never,
      });
      ctx.output.result(page, () =>
        page.data.length
          ? table(
              ['ID', 'STATUS', 'TOOL', 'MODEL', 'CREATED', 'COST'],
              page.data.map((j) => [
                j.id,
                j.status,
                j.tool,
                j.model,
                j.created_at,
                j.actual_cost_cents ?? j.estimated_cost_cents,
              ]),
            ) + (page.next_cursor ? `\nMore: --cursor ${page.next_cursor}` : '')
          : 'No jobs yet.',
      );
    });

  jobs
    .command('get <id>')
    .description('One job')
    .action(async (id: string) => {
      const ctx = createContext(globals());
      const job = await (await ctx.api()).getJob({ params: { id } });
      ctx.output.result(job, () => jobLine(job));
    });

  jobs
    .command('watch <id>')
    .description('Follow a job until it ends (exit 5 when it fails); --out or --output-dir saves its outputs')
    .option('--out <path>', 'download the output to this path')
    .option('--output-dir <dir>', 'download the outputs into this folder')
    .action(async (id: string, options: { out?: string; outputDir?: string }) => {
      const ctx = createContext(globals());
      const client = await ctx.api();
      await waitForJob(ctx, client, id);
      const job = await client.getJob({ params: { id } });
      const failure = failureOf(job);
      if (failure) throw failure;
      const saved = options.out || options.outputDir ? await saveOutputs(ctx, id, job.output, options) : [];
      ctx.output.result({ ...job, saved }, () =>
        [jobLine(job), ...saved.map((p) => `Saved ${p}`)].join('\n'),
      );
    });

  jobs
    .command('cancel <id>')
    .description('Cancel a queued or running job (nothing is charged)')
    .action(async (id: string) => {
      const ctx = createContext(globals());
      const job = await (await ctx.api()).cancelJob({ params: { id } });
      ctx.output.result(job, () => `Job ${job.id} ${job.status}.`);
    });

  jobs
    .command('retry <id>')
    .description('Run a failed or cancelled job again, as a new job')
    .option('--wait', 'wait for the new job to end')
    .action(async (id: string, options: { wait?: boolean }) => {
      const ctx = createContext(globals());
      const client = await ctx.api();
      const job = await client.retryJob({ params: { id } });
      if (!options.wait) {
        ctx.output.result(job, () => `Job ${job.id} ${job.status} (retry of ${id}).`);
        return;
      }
      await waitForJob(ctx, client, job.id);
      const finished = await client.getJob({ params: { id: job.id } });
      const failure = failureOf(finished);
      if (failure) throw failure;
      ctx.output.result(finished, () => jobLine(finished));
    });
}
