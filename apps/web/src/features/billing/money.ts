import type { Money } from '@reelsmith/contract';

/**
 * A price as the payment service states it (an amount in the currency's smallest unit), in the reader's language:
 * 990 usd is $9.90, 4990 brl in Portuguese R$ 49,90, 1500 jpy ¥1,500 (a currency without a minor unit is counted whole).
 */
export function formatPrice({ amount, currency }: Money, locale: string | undefined): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
  } catch {
    // A code the browser does not know: the amount as counted, with the code.
    return `${amount} ${currency.toUpperCase()}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** A number of credits with the language's grouping: 1,000 in English, 1.000 in Portuguese. */
export const formatCredits = (credits: number, locale: string | undefined): string => new Intl.NumberFormat(locale).format(credits);
