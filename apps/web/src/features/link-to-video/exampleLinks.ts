/**
 * Product pages to try the link box with one click (decision "Example links"): the official demo stores of
 * Shopify's own themes (Dawn, Sense, Craft), public, kept by Shopify and serving the page and its pictures to a
 * server with the product's JSON-LD. Marketplaces such as Amazon and AliExpress turn servers away; the landing
 * says what to do for them instead of offering a link that fails. `label` names the product under
 * `link-to-video:form.exampleProducts`.
 */
export const EXAMPLE_LINKS = [
  { label: 'handbag', url: 'https://theme-dawn-demo.myshopify.com/products/bo-ivy-black' },
  { label: 'lipBalm', url: 'https://theme-sense-demo.myshopify.com/products/natural-vegan-lip-balm-lemon-lime' },
  { label: 'carafe', url: 'https://theme-craft-demo.myshopify.com/products/ceramic-carafe-set' },
] as const;
