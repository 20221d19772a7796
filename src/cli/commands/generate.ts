import fs from 'node:fs';
import { type Command, Option } from 'commander';
import { z } from 'zod';
import type { Client } from '../../client/create-client.ts';
import type { ToolKey } from '../../contract/common.ts';
import { TOOL_REQUEST_BODIES, VideoAnalyzeRequest } from '../../contract/generation.ts';
import type { Job } from '../../contract/jobs.ts';
import { type Context, createContext, type GlobalOptions } from '../context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { credits } from '../output.ts';
import { flagsFromSchema, type JsonSchema, type SchemaFlag } from '../schema-flags.ts';
import { uploadPath } from '../upload.ts';
import { failureOf, saveOutputs, waitForJob } from '../wait.ts';

type CreateOperation =
  | 'createImage'
  | 'createVideo'
  | 'analyzeVideo'
  | 'createSpeech'
  | 'createMusic'
  | 'createTranscription'
  | 'runFfmpeg'
  | 'createRender'
  | 'runPipeline';

interface ToolCommand {
  command: string;
  /** The tool whose schema the server describes (`GET /v2/tools/{tool}`); analysis is not a tool of its own. */
  tool: ToolKey | null;
  operation: CreateOperation;
  summary: string;
  /** The body field `--file` fills: a list of `{ url }`, or one URL. */
  fileField: string | null;
  /** The body field the command's positional argument fills. */
  textField: string | null;
}

export const TOOL_COMMANDS: readonly ToolCommand[] = [
  {
    command: 'image',
    tool: 'image',
    operation: 'createImage',
    summary: 'Generate, edit or upscale an image',
    fileField: 'files',
    textField: 'prompt',
  },
  {
    command: 'video',
    tool: 'video',
    operation: 'createVideo',
    summary: 'Generate or edit a video',
    fileField: 'files',
    textField: 'prompt',
  },
  {
    command: 'analyze',
    tool: null,
    operation: 'analyzeVideo',
    summary: 'Analyze a video (summary, scenes, text on screen, transcript)',
    fileField: 'video_url',
    textField: 'prompt',
  },
  {
    command: 'speech',
    tool: 'speech',
    operation: 'createSpeech',
    summary: 'Text to speech',
    fileField: null,
    textField: 'text',
  },
  {
    command: 'music',
    tool: 'music',
    operation: 'createMusic',
    summary: 'Music from a text prompt',
    fileField: null,
    textField: 'prompt',
  },
  {
    command: 'transcribe',
    tool: 'transcription',
    operation: 'createTranscription',
    summary: 'Transcribe audio',
    fileField: 'audio_url',
    textField: null,
  },
  {
    command: 'ffmpeg',
    tool: 'ffmpeg',
    operation: 'runFfmpeg',
    summary: 'Process media: transcode, resize, trim, concat, extract audio, thumbnail, gif',
    fileField: 'files',
    textField: null,
  },
  {
    command: 'render',
    tool: 'render',
    operation: 'createRender',
    summary: 'Render layers into a video or image',
    fileField: null,
    textField: null,
  },
  {
    command: 'pipeline',
    tool: 'pipeline',
    operation: 'runPipeline',
    summary: 'Run a pipeline of steps',
    fileField: null,
    textField: null,
  },
];

/** Flags of ours on every tool command; a schema field of the same name is left to `--input`. */
const OWN_FLAGS = new Set([
  'file',
  'files',
  'wait',
  'out',
  'output_dir',
  'input',
  'folder',
  'idempotency_key',
]);

/** A body schema of the contract as a JSON Schema with its properties at the top (as the server gives it). */
function localSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  const ref = json.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/') && json.$defs) {
    return { ...json.$defs[ref.slice('#/$defs/'.length)], $defs: json.$defs };
  }
  return json;
}

/**
 * The tool's input schema: from the server, with the chosen model's own fields and limits; without a
 * key or a server (`--help` before `media login`), the contract's schema of the tool.
 */
export async function toolSchema(
  ctx: Context,
  spec: ToolCommand,
  model: string | undefined,
): Promise<JsonSchema> {
  if (!spec.tool) return localSchema(VideoAnalyzeRequest);
  const signedIn = Boolean(process.env.MEDIA_API_KEY || ctx.credentials());
  if (signedIn || model) {
    try {
      const client = await ctx.api();
      const tool = await client.getTool({ params: { tool_key: spec.tool }, query: model ? { model } : {} });
      return tool.input_schema as JsonSchema;
    } catch (error) {
      // An unknown model is the user's mistake to hear about; anything else falls back to the contract.
      if (model && (error as { code?: string }).code === 'model_not_found') throw error;
    }
  }
  return localSchema(TOOL_REQUEST_BODIES[spec.tool]);
}

function readJsonArgument(value: string, what: string): unknown {
  const text =
    value === '-'
      ? fs.readFileSync(0, 'utf8')
      : value.startsWith('@')
        ? readFileOrRefuse(value.slice(1))
        : value;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${what} is not valid JSON.`, EXIT.refused);
  }
}

function readFileOrRefuse(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`No such file: ${file}.`, EXIT.refused);
  }
}

/** The output URLs of a job, or of a file, given as JSON (a previous command's `--json` through a pipe). */
function urlsFromJson(value: unknown): string[] {
  const record = value as { output?: Job['output']; job?: Job; url?: unknown; outputs?: unknown };
  const job = record?.job ?? record;
  const outputs = (job as Job)?.output?.outputs;
  if (Array.isArray(outputs)) return outputs.flatMap((o) => (o.url ? [o.url] : []));
  if (typeof record?.url === 'string') return [record.url];
  throw new CliError(
    'The input on stdin is neither a job nor a file (pipe a command run with --json).',
    EXIT.refused,
  );
}

/**
 * What `--file` names, as URLs the job can read: a local path (uploaded, deduplicated by hash), a URL,
 * `file_<id>`, `job:<id>` (that job's outputs), or `-` (a job or file as JSON on stdin).
 */
export async function resolveFiles(
  ctx: Context,
  client: Client,
  values: string[],
  folder?: string,
): Promise<string[]> {
  const urls: string[] = [];
  for (const value of values) {
    if (/^https?:\/\//i.test(value)) urls.push(value);
    else if (value === '-') urls.push(...urlsFromJson(readJsonArgument('-', 'The input on stdin')));
    else if (value.startsWith('job:')) {
      const job = await client.getJob({ params: { id: value.slice(4) } });
      if (job.status !== 'completed') {
        throw new CliError(
          `Job ${job.id} is ${job.status}: only a completed job's outputs can be used.`,
          EXIT.refused,
        );
      }
      urls.push(...urlsFromJson(job));
    } else if (/^file_[A-Za-z0-9]+$/.test(value) && !fs.existsSync(value)) {
      urls.push((await client.getFile({ params: { id: value } })).url);
    } else {
      urls.push((await uploadPath(ctx, client, value, { folder })).file.url);
    }
  }
  return urls;
}

interface RunOptions {
  file?: string[];
  input?: string;
  wait?: boolean;
  out?: string;
  outputDir?: string;
  folder?: string;
  idempotencyKey?: string;
  [flag: string]: unknown;
}

async function runTool(
  ctx: Context,
  spec: ToolCommand,
  flags: SchemaFlag[],
  text: string | undefined,
  options: RunOptions,
) {
  const client = await ctx.api();
  const body: Record<string, unknown> = {};
  if (options.input) {
    const base = readJsonArgument(options.input, '--input');
    if (!base || typeof base !== 'object' || Array.isArray(base)) {
      throw new CliError('--input must be a JSON object (the request body).', EXIT.refused);
    }
    Object.assign(body, base);
  }
  for (const flag of flags) {
    if (options[flag.attribute] !== undefined) body[flag.field] = options[flag.attribute];
  }
  if (text !== undefined) {
    if (!spec.textField) throw new CliError(`media ${spec.command} takes no text argument.`, EXIT.refused);
    body[spec.textField] = text;
  }
  if (options.file?.length) {
    if (!spec.fileField) throw new CliError(`media ${spec.command} takes no --file.`, EXIT.refused);
    const urls = await resolveFiles(ctx, client, options.file, options.folder);
    if (spec.fileField === 'files')
      body.files = [...((body.files as unknown[]) ?? []), ...urls.map((url) => ({ url }))];
    else if (urls.length !== 1)
      throw new CliError(`media ${spec.command} takes exactly one --file.`, EXIT.refused);
    else body[spec.fileField] = urls[0];
  }
  const headers: Record<string, string> = {};
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.folder) headers['x-workspace-id'] = options.folder;

  const create = client[spec.operation] as (input: {
    body: unknown;
    headers: Record<string, string>;
  }) => Promise<Job>;
  const job = await create({ body, headers });
  const wantsFiles = Boolean(options.out || options.outputDir);
  if (!options.wait && !wantsFiles) {
    ctx.output.result(
      job,
      () =>
        `Job ${job.id} ${job.status} (${job.model}, about ${credits(job.estimated_cost_cents)}). Follow it: media jobs watch ${job.id}`,
    );
    return;
  }
  ctx.output.note(`Job ${job.id} ${job.status} (${job.model}, about ${credits(job.estimated_cost_cents)}).`);
  await waitForJob(ctx, client, job.id);
  const finished = await client.getJob({ params: { id: job.id } });
  const failure = failureOf(finished);
  if (failure) throw failure;
  const saved = wantsFiles ? await saveOutputs(ctx, job.id, finished.output, options) : [];
  ctx.output.result({ ...finished, saved }, () => {
    const lines = [`Job ${job.id} completed, ${credits(finished.actual_cost_cents ?? 0)}.`];
    if (saved.length) lines.push(...saved.map((p) => `Saved ${p}`));
    else lines.push(...(finished.output?.outputs ?? []).map((o) => o.url ?? JSON.stringify(o.data)));
    return lines.join('\n');
  });
}

/** The value of a flag in the arguments, before they are parsed. */
function flagInArgs(args: readonly string[], name: string): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** `--model`, which the flags depend on. */
export function modelInArgs(args: readonly string[]): string | undefined {
  return flagInArgs(args, 'model');
}

function globalsInArgs(args: readonly string[]): GlobalOptions {
  return {
    baseUrl: flagInArgs(args, 'base-url'),
    apiKey: flagInArgs(args, 'api-key'),
    team: flagInArgs(args, 'team'),
    json: true,
  };
}

/**
 * Adds the command of one tool, its flags made from the model's schema. Only the command being run is
 * built this way (it costs one request); the others are listed with their summary alone.
 */
export async function registerToolCommand(
  program: Command,
  spec: ToolCommand,
  globals: () => GlobalOptions,
  args: readonly string[],
) {
  // The program's own flags are not parsed yet: the schema is read with those found in the arguments.
  const schema = await toolSchema(createContext(globalsInArgs(args)), spec, modelInArgs(args));
  const skip = new Set([...OWN_FLAGS, ...(spec.fileField ? [spec.fileField] : [])]);
  const flags = flagsFromSchema(schema, skip);
  const command = program.command(spec.command).description(spec.summary);
  if (spec.textField)
    command.argument(`[${spec.textField}]`, `the ${spec.textField} (or --${spec.textField})`);
  for (const flag of flags) command.addOption(flag.option);
  if (spec.fileField) {
    command.addOption(
      new Option(
        '--file <path|url|file_id|job:id|->',
        `input file (repeatable): a local path (uploaded once, by hash), a URL, a file id, a job's outputs, or - for a job as JSON on stdin; fills \`${spec.fileField}\``,
      ).argParser((value: string, previous: string[] = []) => [...previous, value]),
    );
  }
  command
    .option('--input <json|@file|->', 'the request body as JSON (flags override its fields)')
    .option('--wait', 'wait for the job to end (progress on a terminal)')
    .option('--out <path>', 'download the output to this path (implies --wait)')
    .option('--output-dir <dir>', 'download the outputs into this folder, named by job id (implies --wait)')
    .option('--folder <id|slug>', 'file the outputs (and uploads) into this folder')
    .option('--idempotency-key <key>', 'retrying with the same key returns the same job, charged once')
    .action(async (text: string | undefined, options: RunOptions) => {
      const ctx = createContext(globals());
      // Without a text argument commander passes the options first.
      if (typeof text === 'object') return runTool(ctx, spec, flags, undefined, text as RunOptions);
      return runTool(ctx, spec, flags, text, options);
    });
}
