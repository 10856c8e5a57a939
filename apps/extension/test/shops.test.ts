import { describe, expect, it } from 'vitest';
import { isShopHost, isShopifyPage, SHOP_MATCHES } from '../src/shops';

describe('recognised shops', () => {
  it('knows every Amazon storefront and the other marketplaces, with their subdomains', () => {
    for (const host of [
      'www.amazon.com',
      'amazon.co.uk',
      'www.amazon.co.jp',
      'www.amazon.com.br',
      'www.ebay.de',
      'm.aliexpress.com',
      'www.etsy.com',
      'www.walmart.com',
      'www.temu.com',
      'us.shein.com',
      'my-store.myshopify.com',
    ]) {
      expect(isShopHost(host), host).toBe(true);
    }
  });

  it('is not fooled by look-alike hosts', () => {
    for (const host of ['amazon.com.evil.example', 'notamazon.com', 'shop.example', '127.0.0.1'])
      expect(isShopHost(host), host).toBe(false);
  });

  it('recognises a Shopify store on its own domain by its markup', () => {
    const store = document.implementation.createHTMLDocument();
    store.head.innerHTML = '<meta name="shopify-digital-wallet" content="/1/digital_wallets/dialog">';
    expect(isShopifyPage(store)).toBe(true);
    expect(isShopifyPage(document.implementation.createHTMLDocument())).toBe(false);
  });

  it('gives Chrome valid match patterns for the content script', () => {
    for (const pattern of SHOP_MATCHES) expect(pattern).toMatch(/^\*:\/\/(\*\.)?[a-z.-]+\/\*$/);
    expect(SHOP_MATCHES).toContain('*://*.amazon.de/*');
  });
});
