/**
 * The inputs of runs side by side: every leaf of each input as a dotted path (`provider_options.
 * local.seed`), and which of them differ between the runs.
 */
export type FlatInput = Map<string, string>;

export function flattenInput(value: unknown, prefix = '', out: FlatInput = new Map()): FlatInput {
  if (Array.isArray(value)) {
    if (value.length === 0 && prefix) out.set(prefix, '[]');
    value.forEach((item, index) => {
      flattenInput(item, prefix ? `${prefix}.${index}` : String(index), out);
    });
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, '{}');
    for (const [key, item] of entries) flattenInput(item, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix) {
    out.set(prefix, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return out;
}

export interface InputRow {
  path: string;
  /** One cell per run; null where that run did not set the field. */
  values: (string | null)[];
  differs: boolean;
}

/** Rows for every field any run set; `model` first, then the order the runs name them in. */
export function compareInputs(inputs: readonly unknown[]): InputRow[] {
  const flat = inputs.map((input) => flattenInput(input));
  const paths: string[] = [];
  for (const map of flat) for (const path of map.keys()) if (!paths.includes(path)) paths.push(path);
  paths.sort((a, b) => (a === 'model' ? -1 : b === 'model' ? 1 : 0));
  return paths.map((path) => {
    const values = flat.map((map) => map.get(path) ?? null);
    return { path, values, differs: new Set(values).size > 1 };
  });
}
