import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractProduct } from '../../src/modules/link-video/analysis/extract.js';

const page = (name: string) => readFileSync(new URL(`./pages/${name}.html`, import.meta.url), 'utf8');
const jsonLd = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
/** A product page around `head` and `body`: a name and a picture, as any product page has. */
const shop = (head: string, body = '', lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta property="og:title" content="Harbor Canvas Tote"><meta property="og:image" content="/img/tote.jpg">${head}</head><body><h1>Harbor Canvas Tote</h1>${body}</body></html>`;
const offerOf = (html: string, url = 'https://harbor.example/p/tote') => extractProduct(html, url).offer;

describe('the offer and brand of a page', () => {
  it('reads a JSON-LD Offer and its Brand, decoding the entities some shops leave in JSON', () => {
    const product = extractProduct(page('jsonld-graph'), 'https://casaverde.example/product/linen-pillow/');
    expect(product.offer).toEqual({ price: '39.00', currency: 'EUR' });
    expect(product.brand).toBe('Casa Verde');
    const html = shop(
      jsonLd({ '@type': 'Product', name: 'Tote', brand: 'Kettle &amp; Crane', offers: { price: 54, priceCurrency: 'usd' } }),
    );
    expect(extractProduct(html, 'https://harbor.example/p/tote')).toMatchObject({
      offer: { price: '54', currency: 'USD' },
      brand: 'Kettle & Crane',
    });
  });

  it('takes the price of the variant the URL names from an array of offers, and nothing when it names none', () => {
    const offers = ['S', 'M', 'L'].map((size, i) => ({
      '@type': 'Offer',
      url: `https://harbor.example/p/tote?variant=${i + 1}`,
      price: `${29 + i * 5}.00`,
      priceCurrency: 'USD',
      sku: size,
    }));
    const html = shop(jsonLd({ '@context': 'https://schema.org', '@type': 'Product', name: 'Tote', offers }));
    expect(offerOf(html, 'https://harbor.example/p/tote?variant=2#reviews')).toEqual({ price: '34.00', currency: 'USD' });
    expect(offerOf(html)).toBeUndefined();
    const samePrice = offers.map((offer) => ({ ...offer, price: '29.00' }));
    expect(offerOf(shop(jsonLd({ '@type': 'Product', name: 'Tote', offers: samePrice })))).toEqual({ price: '29.00', currency: 'USD' });
  });

  it('reads an AggregateOffer only when it is one price', () => {
    const aggregate = (offer: object) =>
      shop(jsonLd({ '@type': 'Product', name: 'Tote', offers: { '@type': 'AggregateOffer', ...offer } }));
    expect(offerOf(aggregate({ lowPrice: '49.90', highPrice: '49.90', priceCurrency: 'EUR', offerCount: 3 }))).toEqual({
      price: '49.90',
      currency: 'EUR',
    });
    expect(offerOf(aggregate({ lowPrice: 19, offerCount: 1, priceCurrency: 'GBP' }))).toEqual({ price: '19', currency: 'GBP' });
    expect(offerOf(aggregate({ price: '25.00', priceCurrency: 'EUR' }))).toEqual({ price: '25.00', currency: 'EUR' });
    // The cheapest of several sellers or variants is a "from" price.
    expect(offerOf(aggregate({ lowPrice: '10.00', priceCurrency: 'EUR', offerCount: 4 }))).toBeUndefined();
  });

  it('takes a StrikethroughPrice or ListPrice specification as the price before the sale, not a price per kilogram', () => {
    const offer = {
      '@type': 'Offer',
      price: '79.90',
      priceCurrency: 'BRL',
      priceSpecification: [
        { '@type': 'UnitPriceSpecification', price: '159.80', priceCurrency: 'BRL', referenceQuantity: { value: 1, unitCode: 'KGM' } },
        { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '99.90', priceCurrency: 'BRL' },
      ],
    };
    const html = shop(jsonLd({ '@type': 'Product', name: 'Café', offers: offer }), '', 'pt-BR');
    expect(offerOf(html, 'https://loja.example.com.br/cafe')).toEqual({ price: '79.90', currency: 'BRL', listPrice: '99.90' });
    // Offer.price absent: the price is the specification without a priceType; ListPrice the one before.
    const specified = {
      '@type': 'Offer',
      priceSpecification: [
        { '@type': 'UnitPriceSpecification', price: 1749, priceCurrency: 'EUR' },
        { '@type': 'UnitPriceSpecification', priceType: 'ListPrice', price: 1999, priceCurrency: 'EUR' },
      ],
    };
    expect(offerOf(shop(jsonLd({ '@type': 'Product', name: 'Sofa', offers: specified })))).toEqual({
      price: '1749',
      currency: 'EUR',
      listPrice: '1999',
    });
  });

  it("reads a ProductGroup's price and brand from its variants, resolving @id references", () => {
    const group = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@id': '#brand', '@type': 'Brand', name: 'Northwind' },
        {
          '@type': 'ProductGroup',
          name: 'Trail Jacket',
          productGroupID: 'TJ',
          hasVariant: ['S', 'M'].map((size) => ({
            '@type': 'Product',
            name: `Trail Jacket ${size}`,
            brand: { '@id': '#brand' },
            url: `https://northwind.example/jacket?size=${size}`,
            offers: { '@type': 'Offer', price: '129.00', priceCurrency: 'CAD' },
          })),
        },
      ],
    };
    expect(extractProduct(shop(jsonLd(group)), 'https://northwind.example/jacket')).toMatchObject({
      offer: { price: '129.00', currency: 'CAD' },
      brand: 'Northwind',
    });
  });

  it('reads microdata: machine values from content attributes, text with its symbol, the nested Brand', () => {
    const product = extractProduct(page('microdata'), 'https://kettlecrane.example/dripper.html');
    expect(product.offer).toEqual({ price: '24.00', currency: 'USD' });
    expect(product.brand).toBe('Kettle & Crane');
    const text = `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Cafeteira</h1><span itemprop="brand">Oster</span>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">R$ 1.749,00</span></div></div>`;
    expect(extractProduct(shop('', text, 'pt-BR'), 'https://loja.example/cafeteira')).toMatchObject({
      offer: { price: '1749.00', currency: 'BRL' },
      brand: 'Oster',
    });
  });

  it('reads the review summary scaled to 5 stars, from JSON-LD or microdata, and none without a count', () => {
    const rated = (aggregateRating: unknown) =>
      extractProduct(shop(jsonLd({ '@type': 'Product', name: 'Tote', aggregateRating })), 'https://harbor.example/p/tote').rating;
    expect(rated({ '@type': 'AggregateRating', ratingValue: '4.6', reviewCount: '1,284' })).toEqual({ value: 4.6, count: 1284 });
    expect(rated({ ratingValue: 92, bestRating: 100, ratingCount: 310 })).toEqual({ value: 4.6, count: 310 });
    expect(rated({ ratingValue: '4,5', reviewCount: '1.020' })).toEqual({ value: 4.5, count: 1020 });
    // Stars with no count, or more stars than the scale has, are not a summary a script may repeat.
    expect(rated({ ratingValue: 5 })).toBeUndefined();
    expect(rated({ ratingValue: 7, reviewCount: 12 })).toBeUndefined();
    const micro = `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Cafeteira</h1>
      <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
      <span itemprop="ratingValue">4,8</span> de 5 (<span itemprop="reviewCount">2.315</span> avaliações)</div></div>`;
    expect(extractProduct(shop('', micro, 'pt-BR'), 'https://loja.example/cafeteira').rating).toEqual({ value: 4.8, count: 2315 });
  });

  it('reads the meta tags: the sale price is the price, the regular or original one the price before it', () => {
    const meta = (tags: Record<string, string>) =>
      shop(
        Object.entries(tags)
          .map(([property, content]) => `<meta property="${property}" content="${content}">`)
          .join(''),
      );
    expect(offerOf(meta({ 'og:price:amount': '64.95', 'og:price:currency': 'AUD' }))).toEqual({ price: '64.95', currency: 'AUD' });
    const sale = {
      'product:price:amount': '129.00',
      'product:price:currency': 'EUR',
      'product:sale_price:amount': '99.00',
      'product:sale_price:currency': 'EUR',
      'product:brand': 'Lumen',
    };
    expect(extractProduct(meta(sale), 'https://lumen.example/lamp')).toMatchObject({
      offer: { price: '99.00', currency: 'EUR', listPrice: '129.00' },
      brand: 'Lumen',
    });
    expect(offerOf(meta({ ...sale, 'product:original_price:amount': '149.00', 'product:original_price:currency': 'EUR' }))).toEqual({
      price: '99.00',
      currency: 'EUR',
      listPrice: '149.00',
    });
    expect(extractProduct(meta({ 'og:brand': 'Lumen' }), 'https://lumen.example/lamp').brand).toBe('Lumen');
  });

  it("reads a Shopify product's variant price (cents in .js, decimals in .json), compare_at_price, vendor and the store's currency", () => {
    const variants = [
      { id: 11, title: 'Chalk', price: 12900, compare_at_price: 15900, available: false },
      { id: 12, title: 'Moss', price: 11900, compare_at_price: 14900, available: true },
      { id: 13, title: 'Ink', price: 12900, compare_at_price: 12900, available: true },
    ];
    const product = { title: 'Cloudstep', vendor: 'Fieldnote', images: ['//cdn.shopify.com/s/files/1/a.jpg'], variants };
    const html = (json: unknown, currency = 'Shopify.currency = {"active":"EUR","rate":"1.0"};') =>
      `<script>window.Shopify = window.Shopify || {}; ${currency}</script><script type="application/json" data-product-json>${JSON.stringify(json)}</script>`;
    const url = 'https://fieldnote.example/products/cloudstep';
    // The first available variant, as the theme shows it.
    expect(extractProduct(html(product), url)).toMatchObject({
      offer: { price: '119.00', currency: 'EUR', listPrice: '149.00' },
      brand: 'Fieldnote',
    });
    expect(offerOf(html(product), `${url}?variant=11`)).toEqual({ price: '129.00', currency: 'EUR', listPrice: '159.00' });
    // A compare_at_price equal to the price is no sale.
    expect(offerOf(html(product), `${url}?variant=13`)).toEqual({ price: '129.00', currency: 'EUR' });
    const json = { product: { ...product, variants: [{ id: 1, price: '54.00', compare_at_price: '60.00' }] } };
    expect(offerOf(html(json, "window.ShopifyAnalytics.meta.currency = 'USD';"), url)).toEqual({
      price: '54.00',
      currency: 'USD',
      listPrice: '60.00',
    });
    // Shopify writes no currency in the product JSON: without the store's, no offer.
    expect(offerOf(html(product, ''), url)).toBeUndefined();
  });

  const amazon = (priceBlock: string, byline: string, lang: string) =>
    `<!doctype html><html lang="${lang}"><head><title>Amazon</title></head><body>
<div id="dp-container"><div id="imgTagWrapperId"><img id="landingImage" src="https://m.media-amazon.com/images/I/71QWa1u2fJL._AC_SX300_.jpg"></div>
<div id="centerCol"><h1 id="title"><span id="productTitle"> Brightway Wireless Earbuds </span></h1>
<div id="bylineInfo_feature_div"><a id="bylineInfo" class="a-link-normal" href="/stores/Brightway">${byline}</a></div>
<div id="apex_desktop">${priceBlock}</div>
<div id="productOverview_feature_div"><table><tr class="po-model_name"><td><span>Model</span></td><td><span>BW-5</span></td></tr></table></div>
</div></div>
<div id="sp_detail"><span class="a-price"><span class="a-offscreen">$9.99</span></span></div>
</body></html>`;
  const corePrice = (toPay: string, list: string, label: string) => `<div id="corePriceDisplay_desktop_feature_div">
<div class="a-section a-spacing-none aok-align-center aok-relative"><span class="aok-offscreen">${toPay} with 25 percent savings</span>
<span class="a-size-large a-color-price savingPriceOverride savingsPercentage">-25%</span>
<span class="a-price aok-align-center reinventPricePriceToPayMargin priceToPay" data-a-size="xl"><span class="a-offscreen">${toPay}</span><span aria-hidden="true">${toPay}</span></span></div>
<div class="a-section a-spacing-small aok-align-center"><span class="a-size-small a-color-secondary aok-align-center basisPrice">${label}
<span class="a-price a-text-price" data-a-size="s" data-a-strike="true" data-a-color="secondary"><span class="a-offscreen">${list}</span><span aria-hidden="true">${list}</span></span></span></div>
<div class="pricePerUnit"><span class="a-price a-text-price" data-a-size="mini"><span class="a-offscreen">$0.50</span></span> / count</div></div>`;

  it('reads an amazon.com page: the price drawn in pieces, the struck List Price, the brand from "Visit the X Store"', () => {
    const drawn = `<div id="corePriceDisplay_desktop_feature_div"><span class="a-price aok-align-center priceToPay" data-a-size="xl"><span class="a-offscreen"> </span>
<span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">1,029<span class="a-price-decimal">.</span></span><span class="a-price-fraction">99</span></span></span>
<span class="a-size-small a-color-secondary aok-align-center basisPrice">List Price: <span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$1,299.00</span></span></span></div>`;
    expect(extractProduct(amazon(drawn, 'Visit the Brightway Store', 'en-us'), 'https://www.amazon.com/dp/B0TEST1234')).toMatchObject({
      offer: { price: '1029.99', currency: 'USD', listPrice: '1299.00' },
      brand: 'Brightway',
    });
    // "Typical price" is struck the same way; the older table layout marks the price to pay apexPriceToPay.
    const table = `<div id="corePrice_desktop"><table><tr><td>Typical price:</td><td><span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$39.99</span></span></td></tr>
<tr><td>Price:</td><td><span class="a-price a-text-price apexPriceToPay"><span class="a-offscreen">$29.99</span></span></td></tr>
<tr><td>You Save:</td><td><span class="a-price a-text-price"><span class="a-offscreen">$10.00</span></span> (25%)</td></tr></table></div>`;
    expect(extractProduct(amazon(table, 'Brand: Brightway', 'en-us'), 'https://www.amazon.com/dp/B0TEST1234')).toMatchObject({
      offer: { price: '29.99', currency: 'USD', listPrice: '39.99' },
      brand: 'Brightway',
    });
  });

  it('reads amazon.com.br, amazon.de and amazon.co.jp in their formats and words', () => {
    const cases = [
      [
        'https://www.amazon.com.br/dp/B0TEST1234',
        'pt-br',
        'R$\u00a01.749,00',
        'R$\u00a02.199,00',
        'De:',
        'Visite a loja da Brightway',
        'BRL',
      ],
      ['https://www.amazon.de/dp/B0TEST1234', 'de-de', '1.749,00\u00a0€', '2.199,00\u00a0€', 'UVP:', 'Besuche den Brightway-Store', 'EUR'],
      ['https://www.amazon.co.jp/dp/B0TEST1234', 'ja-jp', '￥1,749', '￥2,199', '参考価格:', 'Brightwayのストアを表示', 'JPY'],
    ] as const;
    for (const [url, lang, toPay, list, label, byline, currency] of cases) {
      const whole = currency === 'JPY';
      expect(extractProduct(amazon(corePrice(toPay, list, label), byline, lang), url), url).toMatchObject({
        offer: { price: whole ? '1749' : '1749.00', currency, listPrice: whole ? '2199' : '2199.00' },
        brand: 'Brightway',
      });
    }
  });

  it("prefers Amazon's product overview brand, and takes none from a book's byline", () => {
    const overview = amazon(corePrice('$29.99', '$39.99', 'List Price:'), 'Visit the BW Audio Store', 'en-us').replace(
      '</table>',
      '<tr class="po-brand"><td><span>Brand</span></td><td><span class="po-break-word">Brightway</span></td></tr></table>',
    );
    expect(extractProduct(overview, 'https://www.amazon.com/dp/B0TEST1234').brand).toBe('Brightway');
    const book = amazon(corePrice('$18.00', '$28.00', 'List Price:'), 'Stephen King (Author)', 'en-us');
    expect(extractProduct(book, 'https://www.amazon.com/dp/B0TEST1234').brand).toBeUndefined();
  });

  it('gives no offer for a price range without a single price', () => {
    const range = shop(
      jsonLd({
        '@type': 'Product',
        name: 'Tote',
        offers: { '@type': 'AggregateOffer', lowPrice: '10.00', highPrice: '20.00', priceCurrency: 'USD' },
      }),
      '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Tote</span><div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">$10.00–$20.00</span><meta itemprop="priceCurrency" content="USD"></div></div>',
    );
    expect(offerOf(range)).toBeUndefined();
    const amazonRange = `<div id="corePriceDisplay_desktop_feature_div"><span class="a-price-range"><span class="a-price"><span class="a-offscreen">$10.99</span></span> - <span class="a-price"><span class="a-offscreen">$29.99</span></span></span></div>`;
    expect(
      extractProduct(amazon(amazonRange, 'Visit the Brightway Store', 'en-us'), 'https://www.amazon.com/dp/B0TEST1234').offer,
    ).toBeUndefined();
  });

  it('gives no offer for a "$" price where neither the domain nor the language tells which dollar', () => {
    const body = `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Tote</span>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">$24.00</span></div></div>`;
    expect(offerOf(shop('', body, 'en'), 'https://harbor.com/p/tote')).toBeUndefined();
    expect(offerOf(shop('', body, 'en'), 'https://harbor.ca/p/tote')).toEqual({ price: '24.00', currency: 'CAD' });
    expect(offerOf(shop('', body, 'en-AU'), 'https://harbor.com/p/tote')).toEqual({ price: '24.00', currency: 'AUD' });
    // No currency at all: a price alone is no offer.
    expect(offerOf(shop('<meta property="product:price:amount" content="24.00">'))).toBeUndefined();
  });

  it('weighs sources: a stale regular price loses to the sale another source names it the price before', () => {
    const stale = jsonLd({ '@type': 'Product', name: 'Lamp', offers: { price: '39.00', priceCurrency: 'EUR' } });
    const sale =
      '<meta property="product:price:amount" content="39.00"><meta property="product:price:currency" content="EUR">' +
      '<meta property="product:sale_price:amount" content="29.00"><meta property="product:sale_price:currency" content="EUR">';
    expect(offerOf(shop(stale + sale))).toEqual({ price: '29.00', currency: 'EUR', listPrice: '39.00' });
  });

  it('gives no offer when the sources that agree on the price disagree on its currency, and takes a lone currency from another source', () => {
    const usd = jsonLd({ '@type': 'Product', name: 'Lamp', offers: { price: '39.00', priceCurrency: 'USD' } });
    const eur = '<meta property="og:price:amount" content="39.00"><meta property="og:price:currency" content="EUR">';
    expect(offerOf(shop(usd + eur))).toBeUndefined();
    const noCurrency = jsonLd({ '@type': 'Product', name: 'Lamp', offers: { price: '39.00' } });
    expect(offerOf(shop(noCurrency + eur))).toEqual({ price: '39.00', currency: 'EUR' });
  });

  it('takes no placeholder, link or over-long text for a brand, and goes on to the next source', () => {
    const brand = (value: string) =>
      extractProduct(shop(jsonLd({ '@type': 'Product', name: 'Tote', brand: value })), 'https://harbor.example/p');
    expect(brand('Generic').brand).toBeUndefined();
    expect(brand('https://harbor.example/brand').brand).toBeUndefined();
    expect(brand('word '.repeat(60)).brand).toBeUndefined();
    expect(brand('  Harbor <b>Goods</b>  ').brand).toBe('Harbor Goods');
    const fallback = shop(`${jsonLd({ '@type': 'Product', name: 'Tote', brand: 'N/A' })}<meta property="product:brand" content="Harbor">`);
    expect(extractProduct(fallback, 'https://harbor.example/p').brand).toBe('Harbor');
  });
});
