// The npm espeak-ng package ships an Emscripten module without types: the part of it we use.
declare module 'espeak-ng' {
  interface ESpeakNgOptions {
    /** The command line runs when the module is ready unless this is set; then `_main` runs it. */
    noInitialRun?: boolean;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    quit?: (status: number, toThrow?: unknown) => void;
    /** Emscripten's hook to instantiate the module itself (WebAssembly objects, opaque here). */
    instantiateWasm?: (imports: object, receive: (instance: object, module: object) => void) => Record<string, never>;
  }
  interface ESpeakNgInstance {
    FS: { readFile(path: string): Uint8Array };
    HEAPU8: Uint8Array;
    HEAPU32: Uint32Array;
    /** eSpeak's command line: `main(argc, argv)`, argv an array of pointers to NUL-terminated strings. */
    _main(argc: number, argv: number): number;
  }
  export default function ESpeakNg(options: ESpeakNgOptions): Promise<ESpeakNgInstance>;
}
