import type { Command } from 'commander';
import { ANALYTICS_DIMENSIONS } from '../../contract/values.ts';
import { createContext, type GlobalOptions } from '../context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { credits, table } from '../output.ts';

function csv(rows: Array<Array<string | number | null>>): string {
  const cell = (v: string | number | null) => {
    const text = v === null ? '' : String(v);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return rows.map((r) => r.map(cell).join(',')).join('\n');
}

export function registerAccountCommands(program: Command, globals: () => GlobalOptions) {
  program
    .command('pricing')
    .description('Models and their prices (no sign-in needed)')
    .option('--tool <key>', 'only this tool')
    .option('--available', 'only models that can run on this server')
    .action(async (options: { tool?: string; available?: boolean }) => {
      const ctx = createContext(globals());
      const { data } = await ctx.anonymous().getPricing();
      const rows = data.filter(
        (m) => (!options.tool || m.tool === options.tool) && (!options.available || m.available),
      );
      ctx.output.result({ data: rows }, () =>
        table(
          ['TOOL', 'MODEL', 'PRICE', 'UNIT', 'AVAILABLE'],
          rows.map((m) => {
            const offer = m.providers.find((p) => p.available) ?? m.providers[0];
            return [
              m.tool,
              m.model,
              offer ? offer.unit_price_cents : '',
              offer?.unit ?? '',
              m.available ? 'yes' : 'no',
            ];
          }),
        ),
      );
    });

  program
    .command('spend')
    .description('Spend: the summary and a breakdown, as a table or CSV')
    .option('--from <date>', 'start (YYYY-MM-DD or an instant); default 30 days ago')
    .option('--to <date>', 'end, exclusive; default now')
    .option('--by <dimension>', `breakdown by: ${ANALYTICS_DIMENSIONS.join(', ')}`, 'capability')
    .option('--source <list>', 'only runs started from: app, api, mcp, internal')
    .option('--timezone <zone>', 'IANA timezone for dates', 'UTC')
    .option('--csv', 'the breakdown as CSV')
    .action(
      async (options: {
        from?: string;
        to?: string;
        by: string;
        source?: string;
        timezone: string;
        csv?: boolean;
      }) => {
        const ctx = createContext(globals());
        if (!(ANALYTICS_DIMENSIONS as readonly string[]).includes(options.by)) {
          throw new CliError(`--by must be one of: ${ANALYTICS_DIMENSIONS.join(', ')}.`, EXIT.refused);
        }
        const client = await ctx.api();
        const range = {
          ...(options.from ? { from: options.from } : {}),
          ...(options.to ? { to: options.to } : {}),
          ...(options.source ? { source: options.source.split(',') } : {}),
          timezone: options.timezone,
        };
        const [summary, breakdown] = await Promise.all([
          client.getAnalyticsSummary({ query: range as never }),
          client.getAnalyticsBreakdown({ query: { ...range, dimension: options.by } as never }),
        ]);
        const rows = breakdown.data.map((r) => [
          r.label,
          r.spend_cents,
          r.runs,
          r.jobs,
          Math.round(r.share * 1000) / 10,
        ]);
        if (options.csv) {
          process.stdout.write(
            `${csv([[options.by, 'spend_credits', 'runs', 'jobs', 'share_percent'], ...rows])}\n`,
          );
          return;
        }
        const s = summary.data;
        ctx.output.result({ summary, breakdown }, () =>
          [
            `Spend ${credits(s.spend_cents)} over ${s.runs} runs (${s.jobs} charged jobs)${s.balance ? `; balance ${credits(s.balance.balance_cents)}` : ''}`,
            '',
            table([options.by.toUpperCase(), 'SPEND', 'RUNS', 'JOBS', 'SHARE %'], rows),
          ].join('\n'),
        );
      },
    );

  const keys = program.command('keys').description('API keys of your team (needs `media login`)');
  keys
    .command('list')
    .description('Your keys and the ones shared with you')
    .action(async () => {
      const ctx = createContext(globals());
      const page = await ctx.session().listApiKeys({ query: { limit: 100 } as never });
      ctx.output.result(page, () =>
        table(
          ['ID', 'NAME', 'KEY', 'REVEALABLE', 'CREATED'],
          page.data.map((k) => [
            k.id,
            k.name,
            `${k.start}…${k.last4}`,
            k.revealable ? 'yes' : 'no',
            k.created_at,
          ]),
        ),
      );
    });
  keys
    .command('create <name>')
    .description('Create a key; it is shown once unless --revealable')
    .option('--revealable', 'the key can be shown again later with `media keys reveal`')
    .action(async (name: string, options: { revealable?: boolean }) => {
      const ctx = createContext(globals());
      const created = await ctx
        .session()
        .createApiKey({ body: { name, revealable: options.revealable === true } });
      ctx.output.result(
        created,
        () =>
          `${created.key.id}  ${created.api_key}\nKeep it safe: ${created.key.revealable ? 'it can be revealed again' : 'it is shown only this once'}.`,
      );
    });
  keys
    .command('reveal <id>')
    .description('Show a revealable key again')
    .action(async (id: string) => {
      const ctx = createContext(globals());
      const revealed = await ctx.session().revealApiKey({ params: { id } });
      ctx.output.result(revealed, () => revealed.api_key);
    });
}
