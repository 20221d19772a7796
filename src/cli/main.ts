import { Command, CommanderError } from 'commander';
import { registerAccountCommands } from './commands/account.ts';
import { registerAuthCommands } from './commands/auth.ts';
import { registerFileCommands } from './commands/files.ts';
import { registerToolCommand, TOOL_COMMANDS } from './commands/generate.ts';
import { registerJobCommands } from './commands/jobs.ts';
import { CLI_VERSION, DEFAULT_BASE_URL, type GlobalOptions } from './context.ts';
import { describeError, EXIT } from './exit-codes.ts';

/** Program flags that take a value: their value is not the command's name. */
const VALUE_FLAGS = new Set(['--base-url', '--api-key', '--team']);

/** The command being run: the first argument that is neither a flag nor a flag's value. */
function commandIn(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (VALUE_FLAGS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

const EXIT_CODES_HELP = `
Exit codes:
  0  done                         4  balance too low
  1  unexpected error             5  the job failed or was cancelled
  2  refused: bad flag or input   6  network, rate limit or server error: try again
  3  not signed in, bad key       130 interrupted

Environment: MEDIA_API_KEY (a key, for CI), MEDIA_BASE_URL (the server), MEDIA_CONFIG_DIR (where the
key is stored). Docs: docs/cli.md`;

export async function main(args: readonly string[]): Promise<number> {
  const program = new Command('media');
  const globals = () => program.opts<GlobalOptions>();
  program
    .description('The Media Generation API from a terminal: images, video, speech, music and more')
    .version(CLI_VERSION)
    .option('--base-url <url>', `the server (default: MEDIA_BASE_URL or ${DEFAULT_BASE_URL})`)
    .option('--api-key <key>', 'act with this key (default: MEDIA_API_KEY, then the key of `media login`)')
    .option('--team <slug|id>', 'act for another of your teams')
    .option('--json', 'print results as JSON (the default when stdout is not a terminal)')
    .option('--verbose', 'show each request and its answer on stderr')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError(false)
    .configureOutput({
      // One line per error: commander's "(Did you mean …?)" joins the line it belongs to.
      outputError: (text, write) => write(`${text.trim().replace(/\n+/g, ' ')}\n`),
    })
    .exitOverride();

  registerAuthCommands(program, globals);
  const target = commandIn(args);
  for (const spec of TOOL_COMMANDS) {
    if (spec.command === target) await registerToolCommand(program, spec, globals, args);
    else program.command(spec.command).description(spec.summary);
  }
  registerJobCommands(program, globals);
  registerFileCommands(program, globals);
  registerAccountCommands(program, globals);
  for (const command of program.commands) command.exitOverride();

  try {
    await program.parseAsync([...args], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end well; every other complaint of the parser is a refused command line.
      return error.exitCode === 0 ? EXIT.ok : EXIT.refused;
    }
    const { line, exitCode, data } = describeError(error);
    process.stderr.write(`error: ${line}\n`);
    if (globals().verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    if (globals().json || !process.stdout.isTTY) {
      process.stdout.write(`${JSON.stringify({ error: { message: line, exit_code: exitCode, ...data } })}\n`);
    }
    return exitCode;
  }
}

process.on('SIGINT', () => process.exit(EXIT.interrupted));
process.exitCode = await main(process.argv.slice(2));
