import path from 'node:path';
import type { Command } from 'commander';
import { createContext, type GlobalOptions } from '../context.ts';
import { formatBytes, table } from '../output.ts';
import { type UploadResult, uploadPath } from '../upload.ts';
import { downloadUrl } from '../wait.ts';

export function registerFileCommands(program: Command, globals: () => GlobalOptions) {
  const files = program.command('files').description('Upload, list and download files');

  files
    .command('upload <paths...>')
    .description('Upload files (up to 200 MB each); bytes the team already has are not sent again')
    .option('--folder <id|slug>', 'into this folder')
    .action(async (paths: string[], options: { folder?: string }) => {
      const ctx = createContext(globals());
      const client = await ctx.api();
      const results: UploadResult[] = [];
      for (const file of paths) results.push(await uploadPath(ctx, client, file, options));
      ctx.output.result({ data: results.map((r) => ({ ...r.file, deduplicated: r.deduplicated })) }, () =>
        results
          .map(
            (r) =>
              `${r.file.id}  ${r.file.name}  ${r.deduplicated ? 'already there' : 'uploaded'}  ${r.file.url}`,
          )
          .join('\n'),
      );
    });

  files
    .command('list')
    .description('Files, newest first')
    .option('--folder <ids>', 'folder ids, or none')
    .option('--type <types>', 'media types such as image/* or audio/mpeg')
    .option('--job <id>', 'only the outputs of this job')
    .option('-q, --query <text>', 'text in the file name')
    .option('--limit <n>', 'how many (1 to 100)', '20')
    .option('--cursor <cursor>', 'the next page')
    .action(
      async (options: {
        folder?: string;
        type?: string;
        job?: string;
        query?: string;
        limit: string;
        cursor?: string;
      }) => {
        const ctx = createContext(globals());
        const page = await (await ctx.api()).listFiles({
          query: {
            limit: Number(options.limit),
            ...(options.folder ? { folder: options.folder.split(',') } : {}),
            ...(options.type ? { media_type: options.type.split(',') } : {}),
            ...(options.job ? { job: options.job } : {}),
            ...(options.query ? { q: options.query } : {}),
            ...(options.cursor ? { cursor: options.cursor } : {}),
          } as never,
        });
        ctx.output.result(page, () =>
          page.data.length
            ? table(
                ['ID', 'NAME', 'TYPE', 'SIZE', 'CREATED'],
                page.data.map((f) => [f.id, f.name, f.media_type, formatBytes(f.size_bytes), f.created_at]),
              ) + (page.next_cursor ? `\nMore: --cursor ${page.next_cursor}` : '')
            : 'No files.',
        );
      },
    );

  files
    .command('get <id>')
    .description('One file')
    .action(async (id: string) => {
      const ctx = createContext(globals());
      const file = await (await ctx.api()).getFile({ params: { id } });
      ctx.output.result(
        file,
        () =>
          `${file.id}  ${file.name}\n${file.media_type}, ${formatBytes(file.size_bytes)}, ${file.origin}${file.job_id ? ` of ${file.job_id}` : ''}\n${file.url}`,
      );
    });

  files
    .command('download <id>')
    .description('Download a file')
    .option('--out <path>', 'where to write it (default: its name, here)')
    .action(async (id: string, options: { out?: string }) => {
      const ctx = createContext(globals());
      const file = await (await ctx.api()).getFile({ params: { id } });
      const target = options.out ?? path.basename(file.name);
      await downloadUrl(ctx, new URL(file.url, ctx.root).href, target);
      ctx.output.result({ ...file, saved: target }, () => `Saved ${target}`);
    });

  program
    .command('folders')
    .description('Your folders (use their slug with --folder)')
    .action(async () => {
      const ctx = createContext(globals());
      const page = await (await ctx.api()).listFolders({ query: { limit: 100 } as never });
      ctx.output.result(page, () =>
        page.data.length
          ? table(
              ['SLUG', 'NAME', 'VISIBILITY', 'ID'],
              page.data.map((f) => [f.slug, f.name, f.visibility, f.id]),
            )
          : 'No folders.',
      );
    });
}
