// onnxruntime-node 1.17 ships without its declaration file; its API is onnxruntime-common's, which it re-exports.
declare module 'onnxruntime-node' {
  export * from 'onnxruntime-common';
}
