// The image feature's public face: what other features may use of it (scripts/check-boundaries.mjs).
export { type Preset, PresetTiles } from './PresetTiles';
