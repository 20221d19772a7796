import { Readable } from 'node:stream';
import type { InputFile } from '../../../domain/jobs/provider.ts';

/**
 * An input file of `size` bytes made as it is read (one 64 KB block repeated), so a test can send 150 MB
 * without holding 150 MB: what the process holds is then the adapter's doing.
 */
export function generatedInput(size: number, contentType = 'video/mp4', fileName = 'big.mp4'): InputFile {
  const block = Buffer.alloc(64 * 1024, 7);
  return {
    url: `http://us/files/${fileName}`,
    publicUrl: null,
    contentType,
    kind: 'video',
    size,
    fileName,
    open: async () =>
      Readable.from(
        (function* () {
          for (let left = size; left > 0; left -= block.length) {
            yield left >= block.length ? block : block.subarray(0, left);
          }
        })(),
      ),
    durationSeconds: async () => 4,
  };
}
