import { type CallData, imageClothDesc } from '@reelsmith/contract';
import type { TFunction } from 'i18next';
import { api } from '../../shared/api/client';
import type { PickedImage } from '../generation';
import { CLOTHING_LIMITS, clothingFileFits } from '../generation';

export type ClothCheck = CallData<typeof imageClothDesc>;

/** The generic upload limits message with the clothing limits: types, size in MB, shortest and longest side. */
export const limitsMessage = (t: TFunction) => t('image:clothes.limits', CLOTHING_LIMITS);

/** What to tell the user when the service found the picture unusable as clothing (spec "Validation rules" detection messages). */
export function clothProblem(check: ClothCheck, t: TFunction): string | null {
  if (check.ok) return null;
  if (check.reason === 'size' || check.reason === 'format' || check.reason === null) return limitsMessage(t);
  return t(`image:clothes.reason.${check.reason}`);
}

/** The browser's own check of a clothing file before it is uploaded. */
export const clothingPrecheck = (t: TFunction) => async (file: File) => ((await clothingFileFits(file)) ? null : limitsMessage(t));

/**
 * Asks the service whether a stored picture shows one garment it can dress a model in, by the file's key, which the
 * service reads itself (its signed link expires and is only a way to reach it).
 */
export const checkCloth = (image: PickedImage): Promise<ClothCheck> => api(imageClothDesc, { query: { url: image.resKey } });
