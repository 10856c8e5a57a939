/**
 * What any page has when it carries no product data: its meta description and the videos in its body (its heading
 * and title are name.ts's, its pictures images.ts's). Weaker than the other sources, so extract.ts falls back to it.
 */
import type { CheerioAPI } from 'cheerio';
import { elementsOf } from '../elements.js';
import { metaValues } from './metaTags.js';

/** The video files the page's body plays. */
export function pageVideos($: CheerioAPI): string[] {
  return elementsOf($, 'video').flatMap((video) =>
    [
      video.attribs.src,
      ...$(video)
        .find('source')
        .map((_, source) => source.attribs.src),
    ].flatMap((src) => src ?? []),
  );
}

/** The page's meta description. */
export const pageDescription = ($: CheerioAPI) => metaValues($, 'description')[0];
