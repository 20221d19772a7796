/**
 * Where the CLI writes: results to stdout (JSON when asked, or when stdout is not a terminal, so pipes and
 * scripts always get JSON), everything for a person (notes, progress, errors) to stderr.
 */
export interface Output {
  readonly json: boolean;
  /** The command's result: `data` as JSON, or `human()` for a person. */
  result(data: unknown, human: () => string): void;
  /** A line for the person at the terminal (stderr), never mixed into the result. */
  note(line: string): void;
  /** A progress line redrawn in place on a terminal; nothing elsewhere. */
  progress(line: string): void;
  /** Ends a progress line. */
  progressDone(): void;
}

export function createOutput(options: { json?: boolean }): Output {
  const json = options.json ?? !process.stdout.isTTY;
  const progressOn = process.stderr.isTTY === true;
  let drawn = false;
  return {
    json,
    result(data, human) {
      process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
    },
    note(line) {
      if (drawn) this.progressDone();
      process.stderr.write(`${line}\n`);
    },
    progress(line) {
      if (!progressOn) return;
      const width = process.stderr.columns ?? 80;
      process.stderr.write(`\r${line.slice(0, width - 1).padEnd(Math.min(width - 1, line.length + 10))}`);
      drawn = true;
    },
    progressDone() {
      if (!drawn) return;
      process.stderr.write('\n');
      drawn = false;
    },
  };
}

/** `[#########-----------] 45%` */
export function bar(fraction: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** 1 credit = 1 cent (spec section 1): "1,000 credits ($10.00)", as the console shows it. */
export function credits(cents: number): string {
  const amount = cents.toLocaleString('en-US', { maximumFractionDigits: 4 });
  const dollars = (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  return `${amount} ${cents === 1 ? 'credit' : 'credits'} (${dollars})`;
}

/** A plain text table: columns padded to their widest cell. */
export function table(headers: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (c ?? '').padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
