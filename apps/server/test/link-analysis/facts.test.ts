// The facts beside the name, price and pictures (issue "Link analysis on real shops"): availability, features,
// materials, variants and the page's language, from each source that states them.
import { describe, expect, it } from 'vitest';
import { extractProduct } from '../../src/modules/link-video/analysis/extract.js';
import { availabilityOf } from '../../src/modules/link-video/analysis/facts.js';

const IMG = 'https://cdn.shop.example/p/main.jpg';
const page = (head: string, body = '', lang = '') =>
  `<!doctype html><html${lang ? ` lang="${lang}"` : ''}><head>${head}</head><body>${body}</body></html>`;
const ld = (product: object) =>
  `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', image: IMG, ...product })}</script>`;

describe('product facts', () => {
  it('reads JSON-LD availability, materials, sizes and colours of variants, and properties as features', () => {
    const html = page(
      ld({
        '@type': 'ProductGroup',
        name: 'Linen Shirt',
        material: ['Linen', 'linen', 'Cotton'],
        additionalProperty: [
          { '@type': 'PropertyValue', name: 'Fit', value: 'Relaxed' },
          { '@type': 'PropertyValue', name: 'Care', value: 'Machine wash' },
        ],
        hasVariant: [
          {
            '@type': 'Product',
            size: 'S',
            color: 'Sage',
            offers: { '@type': 'Offer', price: 49, priceCurrency: 'EUR', availability: 'https://schema.org/OutOfStock' },
          },
          {
            '@type': 'Product',
            size: 'M',
            color: 'Sage',
            offers: { '@type': 'Offer', price: 49, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
          },
        ],
      }),
      '',
      'pt-BR',
    );
    expect(extractProduct(html, 'https://shop.example/p').facts).toEqual({
      availability: 'inStock',
      features: ['Fit: Relaxed', 'Care: Machine wash'],
      materials: ['Linen', 'Cotton'],
      variants: ['S', 'Sage', 'M'],
      language: 'pt',
    });
  });

  it("reads microdata's availability link and a Shopify theme's variants and stock", () => {
    const microdata = page(
      '',
      `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Clay Mug</h1><img itemprop="image" src="${IMG}">
       <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><link itemprop="availability" href="https://schema.org/PreOrder"></div></div>`,
    );
    expect(extractProduct(microdata, 'https://shop.example/mug').facts).toEqual({ availability: 'preOrder' });

    const shopify = page(
      `<script type="application/json" data-product-json>${JSON.stringify({
        title: 'Wool Beanie',
        images: [IMG],
        options: [{ name: 'Colour', values: ['Rust', 'Navy'] }],
        variants: [
          { id: 1, title: 'Rust', price: 2500, available: false },
          { id: 2, title: 'Navy', price: 2500, available: false },
        ],
      })}</script>`,
    );
    expect(extractProduct(shopify, 'https://shop.example/products/beanie').facts).toEqual({
      availability: 'outOfStock',
      variants: ['Rust', 'Navy'],
    });
  });

  it("reads Amazon's feature bullets and availability, and a meta tag's stock and language", () => {
    const amazon = page(
      '',
      `<span id="productTitle">Steel Bottle</span><img id="landingImage" src="${IMG}">
       <div id="availability"><span>In stock</span></div>
       <div id="feature-bullets"><ul><li><span class="a-list-item">Keeps drinks cold 24 h</span></li><li><span class="a-list-item">Leak-proof lid</span></li></ul></div>`,
    );
    expect(extractProduct(amazon, 'https://www.amazon.de/dp/B0').facts).toMatchObject({
      availability: 'inStock',
      features: ['Keeps drinks cold 24 h', 'Leak-proof lid'],
    });
    const meta = page(
      `<meta property="og:title" content="保温杯"><meta property="og:image" content="${IMG}"><meta property="product:availability" content="out of stock"><meta property="og:locale" content="zh_CN">`,
    );
    expect(extractProduct(meta, 'https://shop.example.cn/p').facts).toEqual({ availability: 'outOfStock', language: 'zh' });
  });

  it('says nothing a page does not state', () => {
    expect(extractProduct(page(ld({ name: 'Plain Thing' })), 'https://shop.example/p').facts).toBeUndefined();
    expect(availabilityOf('https://schema.org/Discontinued')).toBe('outOfStock');
    expect(availabilityOf('LimitedAvailability')).toBe('limited');
    expect(availabilityOf('ask the shop')).toBeUndefined();
  });
});
