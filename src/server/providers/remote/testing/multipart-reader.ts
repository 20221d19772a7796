/** A multipart field as a stand-in saw it: text, or a file (its first bytes kept, its size counted). */
export type FormValue = string | { name: string; type: string; bytes: Buffer; size: number };

/** Bytes of each file a stand-in keeps for assertions; the rest is counted and dropped. */
const KEPT_BYTES = 1024 * 1024;

/**
 * Reads a multipart/form-data body (RFC 7578) as it arrives, keeping at most KEPT_BYTES of each file, so
 * a stand-in can take a 150 MB upload without holding it (undici's Response.formData() buffers it whole,
 * which would hide whether the client streamed). Enough of the format for the bodies clients send:
 * CRLF delimiters, `Content-Disposition` with `name` and `filename`, `Content-Type`.
 */
export async function readMultipart(
  body: AsyncIterable<Buffer>,
  contentType: string,
): Promise<Record<string, FormValue[]>> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new Error('multipart body without a boundary');
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  const form: Record<string, FormValue[]> = {};
  // The first delimiter has no CRLF before it: start as if one had been read.
  let pending: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let part: { name: string; file?: { name: string; type: string }; kept: Buffer[]; size: number } | null =
    null;

  const take = (bytes: Buffer) => {
    if (!part || bytes.length === 0) return;
    const room = part.file ? KEPT_BYTES - Math.min(part.size, KEPT_BYTES) : bytes.length;
    if (room > 0) part.kept.push(bytes.subarray(0, room));
    part.size += bytes.length;
  };
  const close = () => {
    if (!part) return;
    const data = Buffer.concat(part.kept);
    const value: FormValue = part.file
      ? { name: part.file.name, type: part.file.type, bytes: data, size: part.size }
      : data.toString('utf8');
    form[part.name] = [...(form[part.name] ?? []), value];
    part = null;
  };

  for await (const chunk of body) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (let progressed = true; progressed && state !== 'done'; ) {
      progressed = false;
      if (state === 'preamble' || state === 'body') {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter split across chunks.
          const safe = Math.max(0, pending.length - delimiter.length + 1);
          if (state === 'body') take(pending.subarray(0, safe));
          pending = pending.subarray(safe);
          continue;
        }
        if (state === 'body') take(pending.subarray(0, at));
        close();
        pending = pending.subarray(at + delimiter.length);
        state = 'after-delimiter';
        progressed = true;
      } else if (state === 'after-delimiter') {
        if (pending.length < 2) continue;
        const next = pending.toString('latin1', 0, 2);
        pending = pending.subarray(2);
        state = next === '--' ? 'done' : 'headers';
        progressed = true;
      } else if (state === 'headers') {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) continue;
        const headers = pending.toString('utf8', 0, end);
        pending = pending.subarray(end + 4);
        const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
        const fileName = /filename="([^"]*)"/i.exec(headers)?.[1];
        const type = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
        part = {
          name,
          kept: [],
          size: 0,
          ...(fileName === undefined ? {} : { file: { name: fileName, type } }),
        };
        state = 'body';
        progressed = true;
      }
    }
  }
  return form;
}
