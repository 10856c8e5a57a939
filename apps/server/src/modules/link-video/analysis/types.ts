import type { ProductFacts, ProductOffer, ProductRating } from '@reelsmith/contract';
import type { CheerioAPI } from 'cheerio';

/** A parsed page, the URL its relative links resolve against, and its own (which `<base href>` may differ from). */
export interface Page {
  $: CheerioAPI;
  url: string;
  /** Where the page was fetched from, or the product link of a captured page: its host tells a marketplace's currency. */
  location: string;
}

/**
 * What one source of product data (JSON-LD, OpenGraph, a shop's own JSON…) says about the page. Image and video
 * URLs are as the page writes them (possibly relative); extract.ts resolves, filters and ranks them.
 */
export interface Found {
  name?: string;
  description?: string;
  images: string[];
  videos: string[];
  /** The price as this source states it; extract.ts weighs the sources against each other. */
  offer?: FoundOffer | undefined;
  /** As the page writes it; extract.ts cleans it. */
  brand?: string | undefined;
  /** The review summary, stars scaled to 5. */
  rating?: ProductRating | undefined;
  /** Availability, features, materials and variants, as far as this source states them. */
  facts?: FoundFacts | undefined;
}

/** The facts one source states (the page's language is the page's, not a source's). */
export type FoundFacts = { [K in keyof Omit<ProductFacts, 'language'>]?: ProductFacts[K] | undefined };

/**
 * A price as one source states it, any part of which may be missing: amounts as money.ts reads them ("1749.00"),
 * the currency an ISO 4217 code. `listPrice` is the price before a sale.
 */
export interface FoundOffer {
  price?: string | undefined;
  currency?: string | undefined;
  listPrice?: string | undefined;
}

/** The product a page describes, as extractProduct answers it. */
export interface ExtractedProduct {
  name: string;
  description: string;
  /** Absolute http(s) URLs of the largest variant of each distinct image, best first. */
  images: string[];
  /** Absolute http(s) URLs of video files (not players), best first. */
  videos: string[];
  /** The price the page states, when it states one price in a currency known for sure. */
  offer?: ProductOffer;
  brand?: string;
  rating?: ProductRating;
  facts?: ProductFacts;
}

export const nothingFound = (): Found => ({ images: [], videos: [] });
