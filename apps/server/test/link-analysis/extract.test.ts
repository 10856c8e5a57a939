import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractProduct, hasProduct } from '../../src/modules/link-video/analysis/extract.js';
import { isJunkImage, largestInSrcset, largestVariant, mediaIdentity } from '../../src/modules/link-video/analysis/mediaUrls.js';
import { htmlToText } from '../../src/modules/link-video/analysis/text.js';

const page = (name: string) => readFileSync(new URL(`./pages/${name}.html`, import.meta.url), 'utf8');

describe('extractProduct', () => {
  it('reads a JSON-LD Product beside a @graph, resolving an image @id and dropping the WordPress size suffix', () => {
    const product = extractProduct(page('jsonld-graph'), 'https://casaverde.example/product/linen-pillow/');
    expect(product.name).toBe('Linen Throw Pillow Cover');
    expect(product.description).toBe(
      'Stonewashed European flax linen, soft from the first day.\nHidden zip closure\nMachine washable & line dry',
    );
    expect(product.images).toEqual([
      'https://casaverde.example/wp-content/uploads/2024/03/pillow-sage.jpg',
      'https://casaverde.example/wp-content/uploads/2024/03/pillow-sage-detail.jpg',
      'https://casaverde.example/wp-content/uploads/2024/03/pillow-sage-sofa.jpg',
    ]);
    expect(product.videos).toEqual([]);
  });

  it('falls back to OpenGraph and the gallery of a page with nothing richer', () => {
    const product = extractProduct(page('og-only'), 'https://summitsupply.example/p/trailblazer-28');
    expect(product.name).toBe('Trailblazer 28L Daypack');
    expect(product.description).toMatch(/^A 28-litre pack with a ventilated back panel/);
    // og:image and twitter:image are one picture at two sizes; the lazy-loaded back view comes from the gallery.
    expect(product.images).toEqual([
      'https://img.summitsupply.example/catalog/daypack-front.jpg?w=1200&q=80',
      'https://img.summitsupply.example/catalog/daypack-back.jpg?w=1600',
    ]);
  });

  it('reads microdata, ignoring the names of nested items, taking the 2x picture and the video file', () => {
    const product = extractProduct(page('microdata'), 'https://kettlecrane.example/dripper.html');
    expect(product.name).toBe('Ceramic Pour-Over Coffee Dripper');
    expect(product.description).toBe('Hand-glazed stoneware keeps the brew bed hot.\nFits size 02 cone filters and most mugs.');
    expect(product.images).toEqual([
      'https://kettlecrane.example/media/catalog/product/dripper-white.jpg',
      'https://kettlecrane.example/media/catalog/product/dripper-in-use.jpg',
    ]);
    expect(product.videos).toEqual(['https://cdn.kettlecrane.example/video/dripper-brew.mp4']);
  });

  it("reads a Shopify theme's product JSON: every picture once at full size, the tallest MP4, no YouTube", () => {
    const product = extractProduct(page('shopify'), 'https://fieldnote.example/products/cloudstep-knit-sneaker');
    expect(product.name).toBe('Cloudstep Knit Sneaker');
    expect(product.description).toBe('A breathable knit upper on a recycled foam sole.\nWeighs 240 g\nMachine washable');
    expect(product.images).toEqual(
      ['side', 'top', 'sole'].map((view) =>
        expect.stringMatching(`^https://cdn.shopify.com/s/files/1/0555/1234/products/cloudstep-${view}.jpg\\?v=`),
      ),
    );
    expect(product.videos).toEqual(['https://cdn.shopify.com/videos/c/vp/abc/abc.HD-1080p-7.2Mbps.mp4']);
  });

  it('names a Shopify product from `var meta` when the theme embeds no product JSON', () => {
    const html = page('shopify').replace(/<script type="application\/json" data-product-json>[\s\S]*?<\/script>/, '');
    const product = extractProduct(html.replace(/og:title/, 'og:nothing'), 'https://fieldnote.example/products/cloudstep-knit-sneaker');
    expect(product.name).toBe('Cloudstep Knit Sneaker');
    expect(product.images).toEqual(['https://fieldnote.example/cdn/shop/products/cloudstep-side.jpg?v=1700000001']);
  });

  it("reads an Amazon page: title, feature bullets, each image block's hi-res picture, no sprites", () => {
    const product = extractProduct(page('amazon'), 'https://www.amazon.com/dp/B0TEST1234');
    expect(product.name).toBe('Brightway Wireless Earbuds, Bluetooth 5.3 Headphones with 40H Playtime');
    expect(product.description).toBe(
      [
        '40-hour battery life with the charging case, 8 hours per charge.',
        'Active noise cancellation with four microphones for clear calls.',
        'IPX5 sweat and water resistance for workouts.',
        'Small, light earbuds that stay put.',
      ].join('\n'),
    );
    expect(product.images).toEqual(
      ['71QWa1u2fJL', '81bXq7mPpSL', '31cYr8nQqTL', '71dZs9oRrUL'].map((id) => `https://m.media-amazon.com/images/I/${id}.jpg`),
    );
  });

  it('drops icons, logos, sprites, tracking pixels, vector art, data URIs and other sizes of the same picture', () => {
    const product = extractProduct(page('junk'), 'https://lumen.example/products/glow-serum');
    expect(product.name).toBe('Glow Serum 30 ml');
    expect(product.description).toBe('Vitamin C serum for an even tone.');
    expect(product.images).toEqual([
      'https://cdn.shopify.com/s/files/1/0777/8888/files/glow-serum-bottle.jpg?v=3',
      'https://cdn.shopify.com/s/files/1/0777/8888/files/glow-serum-texture.jpg?v=3',
      'https://lumen.example/img/iconic-gift-box.jpg',
    ]);
  });

  it('finds no product on a page without product data or pictures, though it has a title and a heading', () => {
    const product = extractProduct(page('non-product'), 'https://harbor.example/about');
    expect(product).toMatchObject({ name: '', images: [], videos: [] });
    expect(hasProduct(product)).toBe(false);
  });

  it('takes the name from the heading when the page has product pictures but no product data', () => {
    const html = '<title>Oak Stool | Woodlot</title><body><h1>Oak Stool</h1><img src="/img/oak-stool.jpg" width="800"></body>';
    expect(extractProduct(html, 'http://woodlot.example/stool')).toMatchObject({
      name: 'Oak Stool',
      images: ['http://woodlot.example/img/oak-stool.jpg'],
    });
  });

  it('resolves against <base href> and decodes bytes in the charset the page declares', () => {
    const html = Buffer.from(
      '<html><head><meta charset="iso-8859-1"><base href="https://cdn.example/shop/"><meta property="og:title" content="Caf\xe9 Cr\xe8me Mug"><meta property="og:image" content="img/mug.jpg"></head></html>',
      'latin1',
    );
    expect(extractProduct(html, 'https://shop.example/mug')).toMatchObject({
      name: 'Café Crème Mug',
      images: ['https://cdn.example/shop/img/mug.jpg'],
    });
  });

  it('keeps the name and description within what link-video accepts', () => {
    const long = 'word '.repeat(5000);
    const html = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: long, description: long })}</script>`;
    const product = extractProduct(html, 'https://shop.example/p');
    expect(product.name.length).toBeLessThanOrEqual(500);
    expect(product.description.length).toBeLessThanOrEqual(10_000);
  });
});

describe('media URLs', () => {
  it('picks the widest srcset candidate, by width or density', () => {
    expect(largestInSrcset('a.jpg 400w, b.jpg 1200w, c.jpg 800w')).toBe('b.jpg');
    expect(largestInSrcset('a.jpg, b.jpg 2x')).toBe('b.jpg');
    expect(largestInSrcset('https://cdn.example/t_400,q_80/a.jpg 400w, https://cdn.example/t_900,q_80/a.jpg 900w')).toBe(
      'https://cdn.example/t_900,q_80/a.jpg',
    );
  });

  it('asks Shopify, Amazon and WordPress for their largest variant and leaves other hosts alone', () => {
    expect(largestVariant('https://cdn.shopify.com/s/files/1/2/3/products/a_1024x1024_crop_center@2x.jpg?v=1&width=300')).toBe(
      'https://cdn.shopify.com/s/files/1/2/3/products/a.jpg?v=1',
    );
    expect(largestVariant('https://m.media-amazon.com/images/I/61abc+def._AC_UL320_.jpg')).toBe(
      'https://m.media-amazon.com/images/I/61abc+def.jpg',
    );
    expect(largestVariant('https://shop.example/wp-content/uploads/2024/01/mug-768x1024.png')).toBe(
      'https://shop.example/wp-content/uploads/2024/01/mug.png',
    );
    expect(largestVariant('https://images.example/mug-768x1024.png?width=300')).toBe('https://images.example/mug-768x1024.png?width=300');
  });

  it('counts one picture at several sizes or cache versions once', () => {
    expect(mediaIdentity('https://img.example/a.jpg?w=300&v=2')).toBe(mediaIdentity('https://img.example/a.jpg?w=1200'));
    expect(mediaIdentity('https://img.example/a.jpg?id=1')).not.toBe(mediaIdentity('https://img.example/a.jpg?id=2'));
    expect(mediaIdentity('https://store.example/cdn/shop/files/a_600x.jpg')).toBe(
      mediaIdentity('https://cdn.shopify.com/s/files/1/0555/1234/files/a.jpg'),
    );
  });

  it('tells page furniture from product pictures by whole words of the path', () => {
    for (const junk of [
      'https://a.example/logo.png',
      'https://a.example/icons/cart.png',
      'https://a.example/x.svg',
      'https://a.example/img/sprite_main.png',
    ]) {
      expect(isJunkImage(junk)).toBe(true);
    }
    for (const kept of [
      'https://a.example/iconic-tote.jpg',
      'https://a.example/slogan-tee.jpg',
      'https://a.example/products/starlight-lamp.jpg',
    ]) {
      expect(isJunkImage(kept)).toBe(false);
    }
  });
});

describe('htmlToText', () => {
  it('keeps paragraphs and list items on lines of their own and decodes entities', () => {
    expect(htmlToText('<p>Soft &amp; warm.</p><ul><li>Wool</li><li>Hand wash</li></ul><script>x()</script>')).toBe(
      'Soft & warm.\nWool\nHand wash',
    );
  });
});
