/** `s3://bucket/some/prefix` → bucket and prefix (no slashes around it). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const rest = url.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const prefix = slash < 0 ? '' : rest.slice(slash + 1).replace(/^\/+|\/+$/g, '');
  return { bucket, prefix };
}
