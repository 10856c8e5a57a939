/**
 * OpenGraph and Twitter card tags: nearly every shop has them for link previews, so they name the product and
 * its main picture even where nothing richer exists.
 */
import type { CheerioAPI } from 'cheerio';
import { cleanText } from '../text.js';
import type { Found, Page } from '../types.js';

/** Every value of the meta tags named, in the order of the names (property= for OpenGraph, name= for Twitter; pages mix them up). */
export function metaValues($: CheerioAPI, ...names: string[]): string[] {
  const tags = $('meta')
    .toArray()
    .map((meta) => ({
      name: (meta.attribs.property ?? meta.attribs.name ?? meta.attribs.itemprop ?? '').toLowerCase(),
      content: meta.attribs.content,
    }));
  return names.flatMap((name) => tags.filter((tag) => tag.name === name).flatMap((tag) => cleanText(tag.content) ?? []));
}

export function fromMetaTags({ $ }: Page): Found {
  const videoType = metaValues($, 'og:video:type')[0];
  // og:video is often a player page (text/html); only a video file can be imported, and isVideoFile checks the rest.
  const videos = videoType && !videoType.startsWith('video/') ? [] : metaValues($, 'og:video:secure_url', 'og:video:url', 'og:video');
  return {
    name: metaValues($, 'og:title', 'twitter:title')[0],
    description: metaValues($, 'og:description', 'twitter:description')[0],
    images: metaValues($, 'og:image:secure_url', 'og:image:url', 'og:image', 'twitter:image', 'twitter:image:src'),
    videos: [...videos, ...metaValues($, 'twitter:player:stream')],
  };
}
