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
