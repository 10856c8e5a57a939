// The npm espeak-ng package ships an Emscripten module without types: the part of it we use.
declare module 'espeak-ng' {
  interface ESpeakNgOptions {
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    quit?: (status: number, toThrow?: unknown) => void;
    /** Emscripten's hook to instantiate the module itself (WebAssembly objects, opaque here). */
    instantiateWasm?: (imports: object, receive: (instance: object, module: object) => void) => Record<string, never>;
  }
  interface ESpeakNgInstance {
    FS: { readFile(path: string): Uint8Array };
  }
  export default function ESpeakNg(options: ESpeakNgOptions): Promise<ESpeakNgInstance>;
}
