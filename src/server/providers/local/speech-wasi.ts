/*
 * A minimal WASI preview1 host for command-line programs (flite): arguments, a clock, stdio and one
 * preopened in-memory directory. Node's own `node:wasi` is not used: in Node 20 its fast API calls can
 * trigger a GC in the middle of a call and it keeps a stale view of memory after `memory.grow`, which
 * segfaults the whole process after a few flite runs (nodejs/node#46777, #53087); it also warns that it
 * is experimental on every start. Files live in a Map, so no temp directory is touched.
 */

const ERRNO = { success: 0, badf: 8, inval: 28, noent: 44, notsup: 58 } as const;
const FILETYPE = { characterDevice: 2, directory: 3, regularFile: 4 } as const;
const OFLAGS = { creat: 1, trunc: 8 } as const;
const PREOPEN_FD = 3;

/** Thrown by proc_exit to unwind out of `_start`; carries the exit code. */
class ProcExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

interface OpenFile {
  path: string;
  position: number;
}

/** A growable byte buffer: what a file holds. */
class FileBytes {
  private bytes = new Uint8Array(64 * 1024);
  size = 0;

  constructor(initial?: Uint8Array) {
    if (initial) this.write(0, initial);
  }

  write(at: number, data: Uint8Array): void {
    const end = at + data.length;
    if (end > this.bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.bytes.set(data, at);
    this.size = Math.max(this.size, end);
  }

  read(at: number, length: number): Uint8Array {
    return this.bytes.subarray(at, Math.min(this.size, at + length));
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.size));
  }
}

export interface WasiRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Every file of the preopened directory after the run, keyed by its path inside it. */
  files: Map<string, Buffer>;
}

/**
 * Runs a WASI command module to completion: `args[0]` is the program name, `dir` is the path under which
 * the program sees `files` (for example `/work`; it writes its outputs there too).
 */
export async function runWasiCommand(
  module: WebAssembly.Module,
  args: readonly string[],
  dir: string,
  files: ReadonlyMap<string, Uint8Array> = new Map(),
): Promise<WasiRunResult> {
  const contents = new Map([...files].map(([name, data]) => [name, new FileBytes(data)]));
  const open = new Map<number, OpenFile>();
  let nextFd = PREOPEN_FD + 1;
  const output = { 1: [] as Buffer[], 2: [] as Buffer[] };
  const encodedArgs = args.map((arg) => Buffer.from(`${arg}\0`));
  const encodedDir = Buffer.from(dir);
  let memory: WebAssembly.Memory | undefined;
  // The memory may grow during any call: take fresh views every time.
  const view = () => new DataView(memory!.buffer);
  const bytes = () => new Uint8Array(memory!.buffer);

  const iovecs = (ptr: number, count: number) => {
    const v = view();
    return Array.from({ length: count }, (_, i) => ({
      buf: v.getUint32(ptr + i * 8, true),
      len: v.getUint32(ptr + i * 8 + 4, true),
    }));
  };

  const imports = {
    args_sizes_get(argcPtr: number, sizePtr: number) {
      view().setUint32(argcPtr, encodedArgs.length, true);
      view().setUint32(
        sizePtr,
        encodedArgs.reduce((n, a) => n + a.length, 0),
        true,
      );
      return ERRNO.success;
    },
    args_get(argvPtr: number, bufPtr: number) {
      let at = bufPtr;
      encodedArgs.forEach((arg, i) => {
        view().setUint32(argvPtr + i * 4, at, true);
        bytes().set(arg, at);
        at += arg.length;
      });
      return ERRNO.success;
    },
    clock_time_get(_id: number, _precision: bigint, timePtr: number) {
      view().setBigUint64(timePtr, process.hrtime.bigint(), true);
      return ERRNO.success;
    },
    fd_prestat_get(fd: number, bufPtr: number) {
      if (fd !== PREOPEN_FD) return ERRNO.badf;
      view().setUint8(bufPtr, 0);
      view().setUint32(bufPtr + 4, encodedDir.length, true);
      return ERRNO.success;
    },
    fd_prestat_dir_name(fd: number, pathPtr: number, length: number) {
      if (fd !== PREOPEN_FD) return ERRNO.badf;
      bytes().set(encodedDir.subarray(0, length), pathPtr);
      return ERRNO.success;
    },
    fd_fdstat_get(fd: number, bufPtr: number) {
      const type =
        fd <= 2
          ? FILETYPE.characterDevice
          : fd === PREOPEN_FD
            ? FILETYPE.directory
            : open.has(fd)
              ? FILETYPE.regularFile
              : null;
      if (type === null) return ERRNO.badf;
      const v = view();
      v.setUint8(bufPtr, type);
      v.setUint16(bufPtr + 2, 0, true);
      v.setBigUint64(bufPtr + 8, 0xffff_ffffn, true);
      v.setBigUint64(bufPtr + 16, 0xffff_ffffn, true);
      return ERRNO.success;
    },
    fd_fdstat_set_flags: () => ERRNO.success,
    path_open(
      dirFd: number,
      _dirFlags: number,
      pathPtr: number,
      pathLength: number,
      oflags: number,
      _rightsBase: bigint,
      _rightsInheriting: bigint,
      _fdFlags: number,
      fdPtr: number,
    ) {
      if (dirFd !== PREOPEN_FD) return ERRNO.badf;
      const path = Buffer.from(bytes().subarray(pathPtr, pathPtr + pathLength)).toString();
      if (!contents.has(path) || oflags & OFLAGS.trunc) {
        if (!contents.has(path) && !(oflags & OFLAGS.creat)) return ERRNO.noent;
        contents.set(path, new FileBytes());
      }
      const fd = nextFd++;
      open.set(fd, { path, position: 0 });
      view().setUint32(fdPtr, fd, true);
      return ERRNO.success;
    },
    fd_write(fd: number, iovsPtr: number, iovsLength: number, writtenPtr: number) {
      let written = 0;
      for (const { buf, len } of iovecs(iovsPtr, iovsLength)) {
        const data = bytes().slice(buf, buf + len);
        if (fd === 1 || fd === 2) output[fd].push(Buffer.from(data));
        else {
          const file = open.get(fd);
          if (!file) return ERRNO.badf;
          contents.get(file.path)!.write(file.position, data);
          file.position += len;
        }
        written += len;
      }
      view().setUint32(writtenPtr, written, true);
      return ERRNO.success;
    },
    fd_read(fd: number, iovsPtr: number, iovsLength: number, readPtr: number) {
      if (fd === 0) {
        view().setUint32(readPtr, 0, true);
        return ERRNO.success;
      }
      const file = open.get(fd);
      if (!file) return ERRNO.badf;
      let read = 0;
      for (const { buf, len } of iovecs(iovsPtr, iovsLength)) {
        const chunk = contents.get(file.path)!.read(file.position, len);
        bytes().set(chunk, buf);
        file.position += chunk.length;
        read += chunk.length;
        if (chunk.length < len) break;
      }
      view().setUint32(readPtr, read, true);
      return ERRNO.success;
    },
    fd_seek(fd: number, offset: bigint, whence: number, positionPtr: number) {
      const file = open.get(fd);
      if (!file) return fd <= 2 ? ERRNO.notsup : ERRNO.badf;
      const base = [0, file.position, contents.get(file.path)!.size][whence];
      if (base === undefined) return ERRNO.inval;
      const position = base + Number(offset);
      if (position < 0) return ERRNO.inval;
      file.position = position;
      view().setBigUint64(positionPtr, BigInt(position), true);
      return ERRNO.success;
    },
    fd_close(fd: number) {
      return open.delete(fd) ? ERRNO.success : ERRNO.badf;
    },
    proc_exit(code: number): never {
      throw new ProcExit(code);
    },
  };

  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: imports });
  memory = instance.exports.memory as WebAssembly.Memory;
  let exitCode = 0;
  try {
    (instance.exports._start as () => void)();
  } catch (error) {
    if (!(error instanceof ProcExit)) throw error;
    exitCode = error.code;
  }
  return {
    exitCode,
    stdout: Buffer.concat(output[1]).toString(),
    stderr: Buffer.concat(output[2]).toString(),
    files: new Map([...contents].map(([name, file]) => [name, file.toBuffer()])),
  };
}
