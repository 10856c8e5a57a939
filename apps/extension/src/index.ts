// The extension is built in its own issue; this package only reserves its place in the workspace.
export {};
