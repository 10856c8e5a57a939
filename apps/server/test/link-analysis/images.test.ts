// Junk pictures on real pages (issue "Link analysis on real shops", classes 6 and 7): a page without product data
// whose body holds the product's photos among ads, banners, captchas, cart and map pictures and other products'
// thumbnails. Only the product's photos are kept, in page order.
import { describe, expect, it } from 'vitest';
import { extractProduct } from '../../src/modules/link-video/analysis/extract.js';
import { isJunkImage } from '../../src/modules/link-video/analysis/mediaUrls.js';

const BODY = `
<h1>Woven Basket Bag</h1>
<div class="gallery">
  <img src="/media/basket-weave-bag-front.jpg" width="900" height="1200">
  <img src="/media/basket-weave-bag-side.jpg" height="100" style="height:auto;width:100%">
  <img src="/media/star-pattern-lining.jpg">
</div>
<div class="floating"><img src="/Ads/summer-sale.gif"></div>
<img src="/media/free-shipping-strip.jpg" width="1200" height="90">
<img src="/captcha/img.php?type=captcha&id=77">
<img src="/render.php?slot=ad_banner&w=300">
<img src="/static/cart/cart-empty.png">
<img src="https://tile.openstreetmap.org/15/16384/10895.png">
<img src="https://maps.example.cl/tiles/12/1200/2400.png">
<img src="https://www.facebook.com/tr?id=1&ev=PageView">
<img src="/media/seal.gif">
<img src="/media/swatch-red.jpg" width="40" height="40">
<section class="related-products"><img src="/media/other-tote.jpg"><img src="/media/other-clutch.jpg"></section>
<div id="recommendations"><img src="/media/another-bag.jpg"></div>
<aside><img src="/media/store-front.jpg"></aside>
`;

describe('junk pictures', () => {
  it('keeps the product photos of a page and none of its ads, banners, captchas, map tiles or other products', () => {
    const product = extractProduct(
      `<html><head><title>Woven Basket Bag</title></head><body>${BODY}</body></html>`,
      'https://bags.example.cl/p/9',
    );
    expect(product.images).toEqual([
      'https://bags.example.cl/media/basket-weave-bag-front.jpg',
      'https://bags.example.cl/media/basket-weave-bag-side.jpg',
      'https://bags.example.cl/media/star-pattern-lining.jpg',
    ]);
    expect(product.name).toBe('Woven Basket Bag');
  });

  it('reads the junk words in folders and queries, but not in the product file names that share them', () => {
    for (const junk of [
      'https://a.example/Ads/banner_728.jpg',
      'https://a.example/img.php?type=captcha',
      'https://a.example/banners/home.jpg',
      'https://a.example/p.jpg?slot=ad',
      'https://tile.openstreetmap.org/3/4/2.png',
    ]) {
      expect(isJunkImage(junk), junk).toBe(true);
    }
    for (const kept of [
      'https://a.example/p/star-necklace.jpg',
      'https://a.example/p/cart-wheel-toy.jpg',
      'https://a.example/p/flag-tee.jpg?v=2',
    ]) {
      expect(isJunkImage(kept), kept).toBe(false);
    }
  });
});

// Pictures ranked by evidence (decision "Product names from agreement", Pictures): each fixture reproduces a class of page
// where the product's photos came after, or among, the page's other pictures.
const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const imgs = (names: string[], attrs = 'width="800" height="800"') => names.map((n) => `<img src="/media/${n}.jpg" ${attrs}>`).join('');

describe('pictures ranked by evidence', () => {
  it("puts the product's own data first, then its gallery, then the body's photos near its name, then those far from it", () => {
    const body = `
      <div class="promo-strip"><img src="/media/winter-campaign.jpg" width="1000" height="400"></div>
      <nav>${imgs(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'], 'width="120" height="120"')}</nav>
      <div class="pics">${imgs(['lamp-lit', 'lamp-off'])}</div>
      <h1>Arc Floor Lamp</h1>
      <div class="product-gallery">${imgs(['lamp-detail', 'lamp-base'])}</div>
      <div class="text"><img src="/media/lamp-in-room.jpg" width="900" height="600"></div>
      <div class="reviews">${Array.from({ length: 10 }, (_, i) => `<img src="/media/avatar-face-${i}.jpg" width="48" height="48">`).join('')}</div>
      <div class="story"><img src="/media/our-workshop.jpg" width="1200" height="800"></div>`;
    const product = extractProduct(
      page(
        '<title>Arc Floor Lamp</title><meta property="og:image" content="/media/lamp-packshot.jpg?width=1200">' +
          '<script type="application/ld+json">{"@type":"Product","name":"Arc Floor Lamp","image":"/media/lamp-packshot.jpg"}</script>',
        body,
      ),
      'https://lamps.example/p/arc',
    );
    expect(product.images.map((url) => new URL(url).pathname)).toEqual([
      '/media/lamp-packshot.jpg',
      '/media/lamp-detail.jpg',
      '/media/lamp-base.jpg',
      '/media/lamp-lit.jpg',
      '/media/lamp-off.jpg',
      '/media/lamp-in-room.jpg',
      '/media/winter-campaign.jpg',
      '/media/our-workshop.jpg',
    ]);
  });

  it("drops the site's frame wherever it appears: a preview picture the header shows, repeated stars, a footer badge's other size", () => {
    const body = `
      <div class="site-header"><img src="/assets/brand-mark.png" width="240" height="80"></div>
      <h1>Ceramic Pour-Over Set</h1>
      <div class="rating">${'<img src="/assets/img/star.png">'.repeat(5)}</div>
      <img src="/uploads/pour-over-set.jpg">
      <p><img src="/assets/pay/visa@2x.png"> <img src="/assets/pay/pix.png"></p>
      <div id="footer"><img src="/assets/pay/visa.png"><img src="/assets/pay/pix.png"></div>`;
    const product = extractProduct(
      page('<title>Ceramic Pour-Over Set</title><meta property="og:image" content="https://cafe.example/assets/brand-mark.png">', body),
      'https://cafe.example/products/pour-over',
    );
    expect(product.images).toEqual(['https://cafe.example/uploads/pour-over-set.jpg']);
  });

  it("keeps a photo in an article's own header: that header is the product's, not the site's", () => {
    const body = `<header><img src="/assets/kettle-co.png" width="200" height="60"></header>
      <main><article><header><h1>Stovetop Kettle</h1><img src="/media/stovetop-kettle.jpg" width="900" height="900"></header></article></main>`;
    const product = extractProduct(
      page('<title>Stovetop Kettle</title><meta property="og:image" content="/media/stovetop-kettle.jpg">', body),
      'https://kettle.example/p/1',
    );
    expect(product.images).toEqual(['https://kettle.example/media/stovetop-kettle.jpg']);
  });

  it("leaves out other products' thumbnails in a rail of any name, but keeps the gallery's links to its own pictures", () => {
    const card = (n: number) =>
      `<div class="card"><a href="/products/mug-${n}"><img src="/media/mug-${n}.jpg" width="300" height="300"></a></div>`;
    const body = `
      <h1>Enamel Camp Mug</h1>
      <div class="media">
        <a href="/media/camp-mug-large.jpg"><img src="/media/camp-mug.jpg" width="600" height="600"></a>
        <a href="#"><img src="/media/camp-mug-side.jpg" width="600" height="600"></a>
        <a href="/products/enamel-camp-mug?variant=42"><img src="/media/camp-mug-green.jpg" width="600" height="600"></a>
      </div>
      <div class="more-from-this-shop">${[1, 2, 3, 4].map(card).join('')}</div>
      <a href="/collections/sale"><img src="/media/autumn-sale-hero.jpg" width="1200" height="600"></a>`;
    const product = extractProduct(page('<title>Enamel Camp Mug</title>', body), 'https://camp.example/products/enamel-camp-mug');
    expect(product.images.map((url) => new URL(url).pathname)).toEqual([
      '/media/camp-mug.jpg',
      '/media/camp-mug-side.jpg',
      '/media/camp-mug-green.jpg',
    ]);
  });

  it("keeps a service's only photo though it is declared small, and not the stars or the map's tiles (class 6)", () => {
    const body = `
      <header><img src="/wp-content/uploads/serenity.png" width="180" height="60"></header>
      <h1>Our services</h1>
      <img src="/wp-content/uploads/deep-tissue-massage.jpg" width="150" height="100">
      <p>${'<img src="/wp-content/themes/spa/img/star-full.png">'.repeat(5)}</p>
      <div id="map" class="gmap">
        <img src="https://mt0.google.com/vt/lyrs=m&x=1325&y=3143&z=13">
        <img src="https://mt1.google.com/vt/lyrs=m&x=1326&y=3143&z=13">
      </div>
      <img src="https://khms1.googleapis.com/kh?v=979&x=5&y=12&z=5">`;
    const product = extractProduct(
      page('<title>Deep Tissue Massage | Serenity Spa</title><meta property="og:site_name" content="Serenity Spa">', body),
      'https://serenityspa.example/services/deep-tissue',
    );
    expect(product.images).toEqual(['https://serenityspa.example/wp-content/uploads/deep-tissue-massage.jpg']);
    expect(product.name).toBe('Deep Tissue Massage');
  });

  it('prefers a larger photo to a thumbnail-sized one when the page has both, and never an icon', () => {
    const body = `<h1>Linen Apron</h1>
      <img src="/media/apron-thumb-crop.jpg" width="120" height="120">
      <img src="/media/apron-worn.jpg" width="700" height="900">
      <img src="/media/apron-tag.jpg" width="32" height="32">`;
    const product = extractProduct(page('<title>Linen Apron</title>', body), 'https://aprons.example/p/1');
    expect(product.images).toEqual(['https://aprons.example/media/apron-worn.jpg']);
  });

  it('names at most 60 pictures of a page of hundreds, the gallery first', () => {
    const ads = Array.from({ length: 240 }, (_, i) => `<div class="slot"><img src="/media/promo-${i}.jpg" width="400" height="400"></div>`);
    const body = `${ads.slice(0, 120).join('')}<h1>Road Bike Helmet</h1><div class="gallery">${imgs(['helmet-1', 'helmet-2', 'helmet-3', 'helmet-4'])}</div>${ads.slice(120).join('')}`;
    const product = extractProduct(page('<title>Road Bike Helmet</title>', body), 'https://helmets.example/p/7');
    expect(product.images).toHaveLength(60);
    expect(product.images.slice(0, 4).map((url) => new URL(url).pathname)).toEqual([
      '/media/helmet-1.jpg',
      '/media/helmet-2.jpg',
      '/media/helmet-3.jpg',
      '/media/helmet-4.jpg',
    ]);
  });
});
