import type { CheerioAPI } from 'cheerio';

/** A parsed page and the URL its relative links resolve against. */
export interface Page {
  $: CheerioAPI;
  url: string;
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
}

/** The product a page describes, as extractProduct answers it. */
export interface ExtractedProduct {
  name: string;
  description: string;
  /** Absolute http(s) URLs of the largest variant of each distinct image, best first. */
  images: string[];
  /** Absolute http(s) URLs of video files (not players), best first. */
  videos: string[];
}

export const nothingFound = (): Found => ({ images: [], videos: [] });
