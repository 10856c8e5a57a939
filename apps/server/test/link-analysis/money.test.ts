import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyOf, parseAmount } from '../../src/modules/link-video/analysis/money.js';

describe('parseAmount', () => {
  it('reads the formats shops write, into digits with at most two decimals', () => {
    expect(parseAmount('1.749,00', 'text')).toBe('1749.00');
    expect(parseAmount('1,749.00', 'text')).toBe('1749.00');
    expect(parseAmount('R$ 59,90', 'text')).toBe('59.90');
    expect(parseAmount('¥259', 'text')).toBe('259');
    expect(parseAmount('￥１，７４９', 'text')).toBe('1749');
    expect(parseAmount('1\u202f749,00\u00a0€', 'text')).toBe('1749.00');
    expect(parseAmount("CHF 1'749.50", 'text')).toBe('1749.50');
    expect(parseAmount('₹1,49,999', 'text')).toBe('149999');
    expect(parseAmount('54')).toBe('54');
    expect(parseAmount(54)).toBe('54');
    expect(parseAmount(54.9)).toBe('54.90');
    expect(parseAmount('19.9900')).toBe('19.99');
    expect(parseAmount('1749.000')).toBe('1749.00');
  });

  it('reads "1.749" as 1749 in text people read, and as nothing where schema.org would make it 1.749', () => {
    expect(parseAmount('R$ 1.749', 'text')).toBe('1749');
    expect(parseAmount('1.749')).toBeUndefined();
    expect(parseAmount('19.990')).toBeUndefined();
    expect(parseAmount('1,749')).toBe('1749');
  });

  it('gives nothing for zero, negative, huge, sub-cent, range, "from" and mixed-up amounts', () => {
    expect(parseAmount('19.995')).toBeUndefined();
    for (const bad of ['0', '0,00', -5, '-5', '- R$ 5', 1e9, '1234567890', '19,9951', 0.001, '10–20', '$10 - $20', 'R$ 10 a R$ 20']) {
      expect(parseAmount(bad, 'text'), String(bad)).toBeUndefined();
    }
    for (const bad of [
      'ab 29,99 €',
      'From $10',
      'a partir de R$ 59,90',
      '¥259起',
      '12 34',
      '1.749.00',
      '0.999',
      '$.99',
      'free',
      '',
      null,
    ]) {
      expect(parseAmount(bad, 'text'), String(bad)).toBeUndefined();
    }
  });

  it('reads back any price as the locales of the shops it is measured on print it, with its currency', () => {
    const shops = [
      ['en-US', 'USD'],
      ['pt-BR', 'BRL'],
      ['pt-PT', 'EUR'],
      ['de-DE', 'EUR'],
      ['fr-FR', 'EUR'],
      ['nl-NL', 'EUR'],
      ['en-GB', 'GBP'],
      ['de-CH', 'CHF'],
      ['en-IN', 'INR'],
      ['zh-CN', 'CNY'],
      ['ja-JP', 'JPY'],
      ['es-MX', 'MXN'],
      ['sv-SE', 'SEK'],
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...shops), fc.integer({ min: 1, max: 99_999_999_900 }), ([locale, currency], cents) => {
        const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
        const whole = format.resolvedOptions().maximumFractionDigits === 0;
        const amount = whole ? Math.ceil(cents / 100) : cents / 100;
        const printed = format.format(amount);
        expect(Number(parseAmount(printed, 'text')), printed).toBe(amount);
        const { region, language } = new Intl.Locale(locale);
        expect(currencyOf(printed, { country: region, language }), printed).toBe(currency);
      }),
    );
  });
});

describe('currencyOf', () => {
  it('takes codes and unshared symbols anywhere, a shared symbol only where the place tells which currency', () => {
    expect(currencyOf('usd', {})).toBe('USD');
    expect(currencyOf('R$ 59,90', {})).toBe('BRL');
    expect(currencyOf('EUR 24', {})).toBe('EUR');
    expect(currencyOf('US$ 5', {})).toBe('USD');
    expect(currencyOf('$10', {})).toBeUndefined();
    expect(currencyOf('$10', { language: 'en' })).toBeUndefined();
    expect(currencyOf('$10', { country: 'CA' })).toBe('CAD');
    expect(currencyOf('¥259', { country: 'JP' })).toBe('JPY');
    expect(currencyOf('¥259', { language: 'zh' })).toBe('CNY');
    expect(currencyOf('¥259', {})).toBeUndefined();
    expect(currencyOf('£5 or €6', {})).toBeUndefined();
    expect(currencyOf('XYZ', {})).toBeUndefined();
  });
});
