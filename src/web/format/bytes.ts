const size = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** `2 kB`, `1.5 MB` (decimal units, as file browsers show them); null when the size is unknown. */
export function formatBytes(bytes: number | null): string | null {
  if (bytes === null) return null;
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${size.format(bytes / 1000)} kB`;
  return `${size.format(bytes / 1e6)} MB`;
}
