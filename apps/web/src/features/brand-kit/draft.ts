import type { BrandFontId, BrandKitView } from '@reelsmith/contract';
import type { PickedImage } from '../generation';

/** The kit being edited in the panel: the logo as the picture input holds it. */
export interface BrandKitDraft {
  logo: PickedImage | null;
  primaryColor: string;
  secondaryColor: string;
  fontId: BrandFontId;
  callToAction: string;
}

export const draftOf = (kit: BrandKitView): BrandKitDraft => ({
  logo:
    kit.logoResKey && kit.logoUrl
      ? { fileId: kit.logoResKey, resKey: kit.logoResKey, name: kit.logoName ?? '', url: kit.logoUrl, width: null, height: null }
      : null,
  primaryColor: kit.primaryColor,
  secondaryColor: kit.secondaryColor,
  fontId: kit.fontId,
  callToAction: kit.callToAction,
});
