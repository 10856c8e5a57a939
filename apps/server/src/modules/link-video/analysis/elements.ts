/**
 * The elements link analysis asks a page for, collected in one walk of it: by tag name and by id, in document order.
 * Every `$(selector)` walks the whole page, and a 3 MB page took about 10 ms a walk; the sources' dozen questions
 * now cost one (decision "Product names from agreement", Speed). Where each picture sits (in
 * the site's frame, another product's rail, the product's gallery, a map, a link to another page), the evidence
 * images.ts ranks pictures by (decision "Product names from agreement", Pictures), is found from the pictures up.
 */
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/** The tags looked up by name; other elements are only indexed by id. */
const TAGS = new Set(['base', 'html', 'title', 'meta', 'script', 'h1', 'img', 'video']);

/** Where a picture sits, as bits of `PlacedImage.place`. */
export const FRAME = 1;
export const RAIL = 2;
export const GALLERY = 4;
export const MAP = 8;

/** The site's frame: its header, footer and navigation, by tag, landmark role or the class or id frames go by. */
const FRAME_TAGS = new Set(['header', 'footer', 'nav', 'aside']);
const FRAME_ROLES = new Set(['banner', 'navigation', 'contentinfo', 'complementary']);
const FRAME_NAMES = /(?:^|\s)(?:(?:site|global|main|top)[-_]?)?(?:header|footer|navbar|navigation|nav|topbar|top-bar|mega-?menu)(?=\s|$)/i;
/** Other products' rails: related, recommended, similar, up-sell, cross-sell, recently viewed, also bought. */
const RAIL_NAMES = /related|recommend|similar|upsell|cross-?sell|recently|also-(?:bought|viewed|like)|you-may/i;
/** The product's gallery as themes name it. */
const GALLERY_NAMES =
  /galler|carousel|slider|swiper|slick|zoom|lightbox|product[-_]?(?:images?|photos?|media|pictures?)|pdp[-_]?(?:images?|media)/i;
/** A map's container or tiles (Google Maps, Leaflet, Mapbox, OpenLayers). */
const MAP_NAMES = /(?:^|[\s_-])(?:g?maps?|leaflet|mapbox|ol-viewport)(?=[\s_-]|$)/i;
/** Any of the names below, tested first: most elements' classes are none of them. */
const ANY_PLACE = new RegExp(
  [RAIL_NAMES, GALLERY_NAMES, MAP_NAMES].map((pattern) => pattern.source.replace(/^\^|\$$/g, '')).join('|'),
  'i',
);

/** A picture of the page's body and where it sits. */
export interface PlacedImage {
  element: Element;
  /** FRAME | RAIL | GALLERY | MAP, from the picture and its ancestors. */
  place: number;
  /** Its position among the page's pictures, from 0. */
  order: number;
}

interface Index {
  byTag: Map<string, Element[]>;
  byId: Map<string, Element>;
  /** Microdata items: elements with both itemscope and itemtype. */
  items: Element[];
  /** The site's frame: header, footer, nav and aside elements, their landmark roles, and what frames' classes name. */
  frames: Element[];
  /** How many pictures come before the first heading (the product's name on most pages); undefined without one. */
  imagesBeforeName: number | undefined;
}

const indexes = new WeakMap<CheerioAPI, Index>();

/** Elements whose header and footer are their own, not the site's (HTML's banner and contentinfo roles). */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** A cheap test before FRAME_NAMES: every frame name holds one of these. */
const FRAME_HINT = /head|foot|nav|bar|menu/i;

/** The elements a frame is made of when not by its tag: asking every element for its class cost a 3 MB page 5 ms. */
const FRAME_CONTAINERS = new Set(['div', 'section', 'ul', 'table']);

function isFrame(element: Element, name: string): boolean {
  const attribs = element.attribs;
  if (FRAME_TAGS.has(name)) return (name !== 'header' && name !== 'footer') || !inSection(element);
  if (!FRAME_CONTAINERS.has(name)) return false;
  if (attribs.role !== undefined && FRAME_ROLES.has(attribs.role)) return true;
  const names = attribs.id === undefined ? attribs.class : `${attribs.class ?? ''} ${attribs.id}`;
  return names !== undefined && FRAME_HINT.test(names) && FRAME_NAMES.test(names);
}

/** Whether an element is inside an article, aside, main, nav or section: an article's header holds its heading and photo. */
function inSection(element: Element): boolean {
  for (let node = element.parent; node && node.type === 'tag'; node = node.parent) {
    if (SECTIONING.has((node as Element).name)) return true;
  }
  return false;
}

/** Where an element sits: its own place and its ancestors', each element's found once (`known`) however many pictures it holds. */
function placeOf(element: Element, known: Map<Element, number>): number {
  const cached = known.get(element);
  if (cached !== undefined) return cached;
  const parent = element.parent;
  let place = parent && parent.type === 'tag' ? placeOf(parent as Element, known) : 0;
  if (isFrame(element, element.name)) place |= FRAME;
  const { class: className, id } = element.attribs;
  if (className !== undefined || id !== undefined) {
    const names = id === undefined ? (className as string) : `${className ?? ''} ${id}`;
    if (ANY_PLACE.test(names)) {
      if (RAIL_NAMES.test(names)) place |= RAIL;
      if (GALLERY_NAMES.test(names)) place |= GALLERY;
      if (MAP_NAMES.test(names)) place |= MAP;
    }
  }
  known.set(element, place);
  return place;
}

/** The nearest link around an element, if any. */
export function linkOf(element: Element): string | undefined {
  for (let node: Element | null = element; node && node.type === 'tag'; node = node.parent as Element | null) {
    if (node.name === 'a' && node.attribs.href) return node.attribs.href;
  }
  return undefined;
}

function indexOf($: CheerioAPI): Index {
  let index = indexes.get($);
  if (index) return index;
  index = { byTag: new Map(), byId: new Map(), items: [], frames: [], imagesBeforeName: undefined };
  // Depth first, children pushed in reverse: elements come out in document order.
  const stack: AnyNode[] = [...($.root()[0]?.children ?? [])].reverse();
  while (stack.length) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const element = node as Element;
    const name = element.name.toLowerCase();
    if (TAGS.has(name)) {
      const list = index.byTag.get(name);
      if (list) list.push(element);
      else index.byTag.set(name, [element]);
      if (name === 'h1' && index.imagesBeforeName === undefined) index.imagesBeforeName = index.byTag.get('img')?.length ?? 0;
    }
    if (element.attribs.itemscope !== undefined && element.attribs.itemtype !== undefined) index.items.push(element);
    const id = element.attribs.id;
    if (id && !index.byId.has(id)) index.byId.set(id, element);
    if (node.type === 'tag' && isFrame(element, name)) index.frames.push(element);
    for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i] as AnyNode);
  }
  indexes.set($, index);
  return index;
}

const placed = new WeakMap<CheerioAPI, PlacedImage[]>();

/** The page's elements of a tag (one of TAGS), in document order. */
export const elementsOf = ($: CheerioAPI, tag: 'base' | 'html' | 'title' | 'meta' | 'script' | 'h1' | 'img' | 'video'): Element[] =>
  indexOf($).byTag.get(tag) ?? [];

/** The page's first element with this id. */
export const elementById = ($: CheerioAPI, id: string): Element | undefined => indexOf($).byId.get(id);

/** The page's microdata items (itemscope with an itemtype), in document order. */
export const microdataItems = ($: CheerioAPI): Element[] => indexOf($).items;

/**
 * The page's pictures with where each sits, and how many come before its first heading. Found from each picture up
 * rather than in the walk down: a page has far fewer pictures than elements with classes to read.
 */
export function placedImages($: CheerioAPI): { images: PlacedImage[]; imagesBeforeName: number | undefined } {
  let images = placed.get($);
  if (!images) {
    const known = new Map<Element, number>();
    images = elementsOf($, 'img').map((element, order) => ({ element, place: placeOf(element, known), order }));
    placed.set($, images);
  }
  return { images, imagesBeforeName: indexOf($).imagesBeforeName };
}

/**
 * The pictures of the site's frame, found in the frame's elements noted by the walk: enough to tell a logo named by
 * the product's data or link preview, without placing every picture of a page whose body is not read.
 */
export function frameImages($: CheerioAPI): Element[] {
  const images = new Set<Element>();
  const stack: AnyNode[] = [...indexOf($).frames];
  while (stack.length) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag') continue;
    if ((node as Element).name === 'img') images.add(node as Element);
    else stack.push(...(node as Element).children);
  }
  return [...images];
}

/** Inline scripts of a type ("application/ld+json"), or every inline script without one. */
export const inlineScripts = ($: CheerioAPI, type?: string): Element[] =>
  elementsOf($, 'script').filter(
    (script) => script.attribs.src === undefined && (type === undefined || (script.attribs.type ?? '').trim().toLowerCase() === type),
  );
