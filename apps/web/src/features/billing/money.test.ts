import { describe, expect, it } from 'vitest';
import { formatCredits, formatPrice } from './money';

/** Intl writes a no-break space between a symbol and the amount where a language puts one. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('prices of the Get credits page', () => {
  it('turns an amount in minor units into the currency in the reader’s language', () => {
    expect(formatPrice({ amount: 990, currency: 'usd' }, 'en')).toBe('$9.90');
    expect(plain(formatPrice({ amount: 4990, currency: 'brl' }, 'pt'))).toBe('R$ 49,90');
    expect(formatPrice({ amount: 9900, currency: 'cny' }, 'zh')).toBe('¥99.00');
  });

  it('counts a currency without a minor unit whole', () => {
    expect(formatPrice({ amount: 1500, currency: 'jpy' }, 'en')).toBe('¥1,500');
    expect(plain(formatPrice({ amount: 50000, currency: 'krw' }, 'en'))).toBe('₩50,000');
  });

  it('still shows an amount in a currency the browser does not know', () => {
    expect(formatPrice({ amount: 990, currency: 'x1' }, 'en')).toBe('990 X1');
  });

  it('groups credits as the language does', () => {
    expect(formatCredits(1000, 'en')).toBe('1,000');
    expect(formatCredits(1000, 'pt')).toBe('1.000');
    expect(formatCredits(500, 'zh')).toBe('500');
  });
});
