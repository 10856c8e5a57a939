// The sandbox stand-ins (design "Generation"): for development and tests only, where no local model can do the job. Their
// outputs are real media of the asked size, count and duration, visibly marked SANDBOX with the prompt drawn on.
export { sandboxHolding, sandboxImageToImage, sandboxTextToImage, sandboxTryOn } from './images.js';
export { sandboxTalking } from './talking.js';
export { sandboxVideo } from './video.js';
