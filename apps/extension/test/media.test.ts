import { describe, expect, it } from 'vitest';
import { extractProductMedia } from '../src/media';

/** A page at a shop's address, as jsdom renders it (pictures have no natural size there: their declared one counts). */
function pageAt(url: string, html: string): Document {
  const doc = document.implementation.createHTMLDocument('shop');
  doc.documentElement.innerHTML = html;
  const base = doc.createElement('base');
  base.href = url;
  doc.head.prepend(base);
  return doc;
}

const SHOP = 'https://shop.example/products/kettle';

describe('product media of a page', () => {
  it('takes the JSON-LD Product pictures first, in the shop’s order, then og:image, then large pictures', () => {
    const doc = pageAt(
      SHOP,
      `<head><meta property="og:image" content="https://cdn.example/og.jpg">
       <script type="application/ld+json">${JSON.stringify({
         '@context': 'https://schema.org',
         '@graph': [
           { '@type': 'BreadcrumbList', image: 'https://cdn.example/crumb.jpg' },
           {
             '@type': 'Product',
             name: 'Kettle',
             image: ['/img/front.jpg', { '@type': 'ImageObject', url: 'https://cdn.example/side.jpg' }],
           },
         ],
       })}</script></head>
       <body><img src="/img/gallery.jpg" width="800" height="800"></body>`,
    );
    expect(extractProductMedia(doc)).toEqual({
      images: [
        'https://shop.example/img/front.jpg',
        'https://cdn.example/side.jpg',
        'https://cdn.example/og.jpg',
        'https://shop.example/img/gallery.jpg',
      ],
      mainImage: 'https://shop.example/img/front.jpg',
    });
  });

  it('orders on-screen pictures by size and leaves out icons, site furniture, data: URIs and repeats', () => {
    const doc = pageAt(
      SHOP,
      `<body><header><img src="/logo.png" width="600" height="300"></header>
       <img src="/small.jpg" width="900" height="600">
       <img src="/icon.png" width="48" height="48">
       <img src="/big.jpg" width="1200" height="1200">
       <img src="data:image/png;base64,AAAA" width="900" height="900">
       <img src="/big.jpg" width="1200" height="1200">
       <footer><img src="/badge.png" width="300" height="300"></footer></body>`,
    );
    expect(extractProductMedia(doc).images).toEqual(['https://shop.example/big.jpg', 'https://shop.example/small.jpg']);
  });

  it('finds a product inside a list and its ImageObject contentUrl, and survives broken JSON-LD', () => {
    const doc = pageAt(
      SHOP,
      `<script type="application/ld+json">{ not json</script>
       <script type="application/ld+json">${JSON.stringify([
         { '@type': 'Organization', logo: 'https://cdn.example/logo.png' },
         { '@type': ['Product'], image: { '@type': 'ImageObject', contentUrl: 'https://cdn.example/p.webp' } },
       ])}</script>`,
    );
    expect(extractProductMedia(doc)).toEqual({ images: ['https://cdn.example/p.webp'], mainImage: 'https://cdn.example/p.webp' });
  });

  it('answers no main image for a page without pictures', () => {
    expect(extractProductMedia(pageAt(SHOP, '<p>About us</p>'))).toEqual({ images: [], mainImage: null });
  });
});
