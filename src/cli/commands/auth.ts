import { stderr, stdin } from 'node:process';
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import { ApiError } from '../../client/api-error.ts';
import { type Context, createContext, type GlobalOptions } from '../context.ts';
import { credentialsPath, loadCredentials, removeCredentials, saveCredentials } from '../credentials.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { credits, table } from '../output.ts';

/** Reads one line: a prompt on a terminal, or the next line of piped input (scripts, tests). */
async function ask(question: string): Promise<string> {
  const lines = readline.createInterface({ input: stdin, output: stderr, terminal: stdin.isTTY === true });
  try {
    const answer = await lines.question(question);
    return answer.trim();
  } catch {
    throw new CliError('No answer (input closed).', EXIT.refused);
  } finally {
    lines.close();
  }
}

async function loginWithKey(ctx: Context, key: string) {
  const who = await ctx.withToken(key).getMe();
  saveCredentials(ctx.root, {
    email: who.person?.email ?? '',
    api_key: key,
    access_token: null,
    access_expires_at: null,
    team_keys: {},
  });
  return who;
}

export function registerAuthCommands(program: Command, globals: () => GlobalOptions) {
  program
    .command('login')
    .description('Sign in with a code sent to your email, and keep an API key for the next commands')
    .option('--email <address>', 'your email address (asked when absent)')
    .addHelpText(
      'after',
      '\nWith --api-key (or MEDIA_API_KEY), the key is checked and stored instead: no email needed.',
    )
    .action(async (options: { email?: string }) => {
      const ctx = createContext(globals());
      const givenKey = globals().apiKey ?? process.env.MEDIA_API_KEY;
      if (givenKey) {
        const who = await loginWithKey(ctx, givenKey);
        ctx.output.result(
          { signed_in: true, base_url: ctx.root, team: who.team },
          () => `Key stored for ${who.team.name} on ${ctx.root} (${credentialsPath()}).`,
        );
        return;
      }
      const email = options.email ?? (await ask('Email: '));
      if (!email) throw new CliError('An email address is needed to sign in.', EXIT.refused);
      const client = ctx.anonymous();
      await client.sendOtp({ body: { email } });
      ctx.output.note(`A 6-digit code is on its way to ${email}.`);
      let session: Awaited<ReturnType<typeof client.verifyOtp>> | null = null;
      // A mistyped code may be entered again; the server burns the code after five wrong tries.
      for (let attempt = 1; !session; attempt++) {
        const code = (await ask('Code from the email: ')).replace(/\s+/g, '');
        try {
          session = await client.verifyOtp({ body: { email, code } });
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500 || attempt >= 5 || !stdin.isTTY)
            throw error;
          ctx.output.note(`${error.message} Try again.`);
        }
      }
      const previous = loadCredentials(ctx.root);
      saveCredentials(ctx.root, {
        email: session.email,
        api_key: session.api_key,
        access_token: session.access_token,
        access_expires_at: session.expires_at,
        // Keys made for other teams stay valid across sign-ins of the same person.
        team_keys: previous?.email === session.email ? previous.team_keys : {},
      });
      ctx.output.result(
        { signed_in: true, email: session.email, base_url: ctx.root, balance_cents: session.balance_cents },
        () => `Signed in as ${session.email} on ${ctx.root}. Balance: ${credits(session.balance_cents)}.`,
      );
    });

  program
    .command('logout')
    .description('Forget the stored key and session for this server')
    .action(() => {
      const ctx = createContext(globals());
      const removed = removeCredentials(ctx.root);
      ctx.output.result({ signed_out: removed, base_url: ctx.root }, () =>
        removed ? `Signed out of ${ctx.root}.` : `You were not signed in to ${ctx.root}.`,
      );
    });

  program
    .command('whoami')
    .description('Who you are, the team you act for, and its balance')
    .action(async () => {
      const ctx = createContext(globals());
      const me = await (await ctx.api()).getMe();
      ctx.output.result(me, () =>
        [
          `${me.person ? `${me.person.email}` : 'Service key'} on ${ctx.root}`,
          `Team: ${me.team.name} (${me.team.slug}), ${me.role}`,
          `Balance: ${credits(me.balance_cents)}`,
          `Signed in with: ${me.auth.kind === 'api_key' ? `API key ${me.auth.api_key_id}` : 'a session'}`,
        ].join('\n'),
      );
    });

  program
    .command('teams')
    .description('Your teams; act for one with --team <slug>')
    .action(async () => {
      const ctx = createContext(globals());
      const me = await (await ctx.api()).getMe();
      ctx.output.result({ data: me.teams, current: me.team.id }, () =>
        table(
          ['', 'SLUG', 'NAME', 'ROLE', 'ID'],
          me.teams.map((t) => [t.id === me.team.id ? '*' : '', t.slug, t.name, t.role, t.id]),
        ),
      );
    });
}
