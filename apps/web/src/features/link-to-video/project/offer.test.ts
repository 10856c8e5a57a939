import { describe, expect, it } from 'vitest';
import { currencyChoices, normalAmount, offerOf, offerProblem } from './offer';

const typed = (productPrice: string, productListPrice = '', productCurrency = 'USD') => ({
  productPrice,
  productListPrice,
  productCurrency,
});

describe('the product offer', () => {
  it('is no offer without a price, and that is not a problem', () => {
    expect(offerOf(typed(''))).toEqual({ problems: {} });
    expect(offerProblem(typed('  '))).toBeNull();
  });

  it('is the contract offer for a price, a currency and a higher price before the sale', () => {
    expect(offerOf(typed('54.90', '69.90'))).toEqual({ offer: { price: '54.90', currency: 'USD', listPrice: '69.90' }, problems: {} });
    expect(offerOf(typed('1749', '', 'BRL')).offer).toEqual({ price: '1749', currency: 'BRL' });
  });

  it('reads a lone decimal comma as a point, as a Brazilian seller types a price', () => {
    expect(normalAmount('54,90')).toBe('54.90');
    expect(normalAmount(' 1 749,5 ')).toBe('1749.5');
    // A thousands separator is not guessed at: the contract refuses it and the seller is told.
    expect(normalAmount('1.749,00')).toBe('1.749,00');
    expect(offerOf(typed('54,90', '69,9', 'BRL')).offer).toEqual({ price: '54.90', currency: 'BRL', listPrice: '69.9' });
  });

  it('names the field a malformed amount is in', () => {
    expect(offerOf(typed('$54')).problems).toEqual({ productPrice: 'offer.priceInvalid' });
    expect(offerOf(typed('54.999')).problems).toEqual({ productPrice: 'offer.priceInvalid' });
    expect(offerOf(typed('54', 'sixty')).problems).toEqual({ productListPrice: 'offer.listPriceInvalid' });
    expect(offerOf(typed('1.749,00')).offer).toBeUndefined();
  });

  it('refuses a price before the sale that is not higher than the price', () => {
    expect(offerOf(typed('54.90', '54.9')).problems).toEqual({ productListPrice: 'offer.listPriceNotHigher' });
    expect(offerProblem(typed('60', '50'))).toBe('offer.listPriceNotHigher');
  });

  it('asks for the price when only the price before the sale is given, rather than dropping it', () => {
    expect(offerOf(typed('', '69.90'))).toEqual({ problems: { productPrice: 'offer.priceMissing' } });
  });

  it('asks for a currency when none is chosen', () => {
    expect(offerOf(typed('54.90', '', '')).problems).toEqual({ productCurrency: 'offer.currencyInvalid' });
  });

  it('offers the analysed currency beside the common ones', () => {
    expect(currencyChoices('EUR').filter((code) => code === 'EUR')).toHaveLength(1);
    expect(currencyChoices('PLN').slice(0, 2)).toEqual(['PLN', 'USD']);
    expect(currencyChoices('')).toContain('CNY');
  });
});
