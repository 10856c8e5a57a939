// The brand kit feature's public face (scripts/check-boundaries.mjs): the panel, for the account menu, and the
// button that opens it, for the link-to-video editor.

export { BrandKitButton } from './BrandKitButton';
export { BrandKitPanel } from './BrandKitPanel';
