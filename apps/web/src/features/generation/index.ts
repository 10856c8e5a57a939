// The generation feature's public face: the parts every tool page is made of (scripts/check-boundaries.mjs).

export * from './fields';
export { default as generationStyles } from './generation.module.css';
export { ImageInput } from './ImageInput';
export { CLOTHING_LIMITS, clothingFileFits, type Size } from './imageFile';
export { type Preset, PresetTiles } from './PresetTiles';
export { findLibraryImage, imageRef, type PickedImage } from './pickedImage';
export { usePricedAction, useSkuPrice, useSkuQuote } from './price';
export { ShortOfCredits, useShortfall } from './shortfall';
export { submitGeneration } from './submit';
export { SubmitBar, ToolLayout } from './ToolLayout';
export { ToolSwitch } from './ToolSwitch';
export { useGenerationForm } from './useGenerationForm';
