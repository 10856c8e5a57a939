/**
 * The elements link analysis asks a page for, collected in one walk of it: by tag name and by id, in document order.
 * Every `$(selector)` walks the whole page, and a 3 MB page took about 10 ms a walk; the sources' dozen questions
 * now cost one (decision "Product names from agreement", Speed).
 */
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/** The tags looked up by name; other elements are only indexed by id. */
const TAGS = new Set(['base', 'html', 'title', 'meta', 'script', 'h1', 'img', 'video']);

interface Index {
  byTag: Map<string, Element[]>;
  byId: Map<string, Element>;
  /** Microdata items: elements with both itemscope and itemtype. */
  items: Element[];
}

const indexes = new WeakMap<CheerioAPI, Index>();

function indexOf($: CheerioAPI): Index {
  let index = indexes.get($);
  if (index) return index;
  index = { byTag: new Map(), byId: new Map(), items: [] };
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
    }
    if (element.attribs.itemscope !== undefined && element.attribs.itemtype !== undefined) index.items.push(element);
    const id = element.attribs.id;
    if (id && !index.byId.has(id)) index.byId.set(id, element);
    for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i] as AnyNode);
  }
  indexes.set($, index);
  return index;
}

/** The page's elements of a tag (one of TAGS), in document order. */
export const elementsOf = ($: CheerioAPI, tag: 'base' | 'html' | 'title' | 'meta' | 'script' | 'h1' | 'img' | 'video'): Element[] =>
  indexOf($).byTag.get(tag) ?? [];

/** The page's first element with this id. */
export const elementById = ($: CheerioAPI, id: string): Element | undefined => indexOf($).byId.get(id);

/** The page's microdata items (itemscope with an itemtype), in document order. */
export const microdataItems = ($: CheerioAPI): Element[] => indexOf($).items;

/** Inline scripts of a type ("application/ld+json"), or every inline script without one. */
export const inlineScripts = ($: CheerioAPI, type?: string): Element[] =>
  elementsOf($, 'script').filter(
    (script) => script.attribs.src === undefined && (type === undefined || (script.attribs.type ?? '').trim().toLowerCase() === type),
  );
