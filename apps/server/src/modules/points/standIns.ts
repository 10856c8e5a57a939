// A stand-in costs nothing (decision "Stand-ins are free"): where the sandbox does a SKU's work instead of a vendor
// (outside production, nothing set), its price is 0, shown as such, and nothing is charged for it.
import type { SkuCode } from '@reelsmith/contract';
import { type Capability, type GenerationProviders, isSandbox } from '../../providers/provider.js';
import type { Priced } from './ledger.js';

/**
 * The capabilities whose providers may make a SKU's outputs, by the SKU code's prefix (a picture is drawn or, from a
 * reference, edited); none for the work the server does itself (link to video's render, the local camera move).
 */
const MADE_BY: Array<[prefix: string, capabilities: readonly Capability[]]> = [
  ['imageGen', ['textToImage', 'imageToImage']],
  ['imageTryOn', ['virtualTryOn']],
  ['imageBg', ['removeBackground', 'replaceBackground']],
  ['extendImg', ['extendImage']],
  ['imageEnhance', ['upscale']],
  ['t2Video_', ['textToVideo']],
  ['img2Video_', ['imageToVideo']],
  ['avatarVideo', ['talkingAvatar']],
  ['productHolding', ['productHolding']],
];

/** A priced item, with the capability doing its work where the task knows it (an image edited, not drawn). */
export interface PricedWork extends Priced {
  madeBy?: Capability | undefined;
}

const madeByOf = (item: PricedWork): readonly Capability[] =>
  item.madeBy ? [item.madeBy] : (MADE_BY.find(([prefix]) => item.sku.startsWith(prefix))?.[1] ?? []);

/**
 * Whether the sandbox's marked stand-in, not real work, makes this item on this server: exactly, where the task
 * says which capability works; for a quote, only when every capability that might is the sandbox, so a charge is
 * never more than the price shown.
 */
export function isStandIn(providers: GenerationProviders, item: PricedWork): boolean {
  const capabilities = madeByOf(item);
  return capabilities.length > 0 && capabilities.every((capability) => isSandbox(providers[capability]));
}

/** A task's price with the stand-ins' parts taken out: null when nothing real is left to pay for. */
export function realWorkOf(
  price: (PricedWork & { also?: readonly PricedWork[] | undefined }) | null,
  providers: GenerationProviders,
): (Priced & { also?: readonly Priced[] }) | null {
  if (!price) return null;
  const [first, ...rest] = [price, ...(price.also ?? [])].filter((item) => !isStandIn(providers, item));
  if (!first) return null;
  return { sku: first.sku, count: first.count, ...(rest.length ? { also: rest.map(({ sku, count }) => ({ sku, count })) } : {}) };
}

/**
 * What a SKU costs a caller here: its listed price, or 0 where a stand-in does the work; `madeBy` names the work
 * where the SKU covers two (a picture edited from a reference, not drawn), one it does not cover is not asked for.
 */
export function shownPrice(providers: GenerationProviders, sku: SkuCode, listed: number, madeBy?: Capability) {
  const covered = madeBy !== undefined && madeByOf({ sku, count: 1 }).includes(madeBy);
  const standIn = isStandIn(providers, { sku, count: 1, madeBy: covered ? madeBy : undefined });
  return { price: standIn ? 0 : listed, standIn };
}
