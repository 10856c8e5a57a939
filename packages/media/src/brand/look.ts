/**
 * A user's brand as the media engine takes it (decision "Brand kit"): two colours, the typeface they chose and the
 * logo as a local file; a kit saved with none of these is the default brand.
 */
import type { BrandFontFileId } from './fonts.js';

/** The brand kit as the renderer takes it: type colour, accent colour, typeface, and the logo as a local file. */
export interface BrandLook {
  primary: string;
  secondary: string;
  font?: BrandFontFileId | undefined;
  logo?: string | undefined;
}

/** The brand of a user who saved no kit: the contract's default kit (near-white type, a warm accent). */
export const DEFAULT_BRAND: BrandLook = { primary: '#f7f5f0', secondary: '#ff7a45' };
