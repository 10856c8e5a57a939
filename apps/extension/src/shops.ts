/**
 * The shops whose product pages get the floating "Make a video" button. The popup works on any http(s) page;
 * the button is the only thing the extension runs on pages by itself, so it is limited to these shops.
 */

/** Amazon's storefronts: match patterns cannot wildcard a top-level domain, so each is named. */
const AMAZON_DOMAINS = [
  'com',
  'ca',
  'com.mx',
  'com.br',
  'co.uk',
  'de',
  'fr',
  'it',
  'es',
  'nl',
  'se',
  'pl',
  'com.be',
  'com.tr',
  'ae',
  'sa',
  'eg',
  'in',
  'sg',
  'com.au',
  'co.jp',
  'cn',
].map((tld) => `amazon.${tld}`);

const EBAY_DOMAINS = ['com', 'co.uk', 'de', 'fr', 'it', 'es', 'ca', 'com.au', 'at', 'ch', 'ie', 'nl', 'be', 'pl'].map(
  (tld) => `ebay.${tld}`,
);

/** Every recognised shop's registrable domain; its subdomains (www., us., m.) count too. */
export const SHOP_DOMAINS = [
  ...AMAZON_DOMAINS,
  ...EBAY_DOMAINS,
  'aliexpress.com',
  'aliexpress.us',
  'aliexpress.ru',
  'etsy.com',
  'walmart.com',
  'walmart.ca',
  'walmart.com.mx',
  'temu.com',
  'shein.com',
  'myshopify.com',
];

/** The content script's match patterns (manifest): each domain and its subdomains, http and https. */
export const SHOP_MATCHES = SHOP_DOMAINS.flatMap((domain) => [`*://${domain}/*`, `*://*.${domain}/*`]);

export const isShopHost = (hostname: string) => SHOP_DOMAINS.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`));

/**
 * A Shopify store on its own domain: the page's `Shopify` global is out of a content script's reach (it lives in
 * the page's world), so the markers every Shopify storefront renders are read instead.
 */
export function isShopifyPage(doc: Document): boolean {
  return (
    doc.querySelector(
      'meta[name="shopify-checkout-api-token"], meta[name="shopify-digital-wallet"], script#shopify-features, ' +
        'link[href*="cdn.shopify.com"], script[src*="cdn.shopify.com"]',
    ) !== null
  );
}

export const isRecognisedShop = (doc: Document) => isShopHost(doc.location.hostname) || isShopifyPage(doc);
