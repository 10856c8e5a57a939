// The sandbox stand-ins (design "Generation"): for development and tests only, where no local model can do the job. Their
// outputs are real media of the asked size, count and duration, visibly marked SANDBOX with the prompt drawn on.
export { sandboxHolding, sandboxImageToImage, sandboxTextToImage, sandboxTryOn } from './images.js';
export { sandboxTalking } from './talking.js';
export { sandboxVideo } from './video.js';

/** Whether a provider is the sandbox's marked stand-in, not a real model (decision "Stand-ins are free"). */
export const isSandbox = (provider: { name: string } | null | undefined): boolean => provider?.name === 'sandbox';
