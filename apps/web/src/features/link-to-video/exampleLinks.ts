/** Product pages of the kinds of shops sellers paste from, to try the link box with one click. */
export const EXAMPLE_LINKS = [
  'https://www.amazon.com/dp/B09XS7JWHH',
  'https://www.allbirds.com/products/mens-tree-runners',
  'https://www.etsy.com/listing/1016233283/personalized-leather-wallet',
  'https://www.aliexpress.com/item/1005006245361472.html',
] as const;

/** A chip shows the shop, not the whole address. */
export const exampleLabel = (link: string) => new URL(link).hostname.replace(/^www\./, '');
