/** The espeak-ng package (an Emscripten build of the espeak-ng command) ships no types. */
declare module 'espeak-ng' {
  interface ESpeakNgModule {
    FS: {
      readFile(path: string): Uint8Array;
      writeFile(path: string, data: string | Uint8Array): void;
    };
  }

  interface ESpeakNgOptions {
    /** The command line, without the program name. */
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    /** Called on exit; the default sets process.exitCode. */
    quit?: (status: number, toThrow: unknown) => void;
    preRun?: Array<(module: ESpeakNgModule) => void>;
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance) => void,
    ) => Record<string, never>;
  }

  /** Instantiates the module and runs main with `arguments`; resolves once main has returned. */
  export default function ESpeakNg(options: ESpeakNgOptions): Promise<ESpeakNgModule>;
}
