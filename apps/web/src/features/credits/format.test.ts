import { LOCALES, OperationType } from '@reelsmith/contract';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../shared/i18n/i18n';
import { formatAmount, formatHistoryTime } from './format';

const pad = (n: number) => String(n).padStart(2, '0');

describe('credit history formatting (spec "Screens and routes")', () => {
  it('gives earned amounts a plus sign and shows used amounts as they come', () => {
    expect(formatAmount(100, 'gained')).toBe('+100');
    expect(formatAmount(1200, 'gained')).toBe('+1200');
    expect(formatAmount(-30, 'used')).toBe('-30');
    expect(formatAmount(-1500, 'used')).toBe('-1500');
  });

  it('writes the date as YYYY-MM-DD HH:mm:ss in local time', () => {
    const iso = '2024-03-05T07:08:09.000Z';
    const local = new Date(iso);
    const expected =
      `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ` +
      `${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`;
    expect(formatHistoryTime(iso)).toBe(expected);
    expect(formatHistoryTime('2024-12-31T23:59:59')).toBe('2024-12-31 23:59:59');
  });

  it.each(LOCALES)("names every one of the spec's 19 operation types, the Avatar tool's and product in hand's in %s", (locale) => {
    const t = i18n.getFixedT(locale, 'credits');
    const names = OperationType.options.map((type) => t(`operationType.${type}`));
    expect(names).toHaveLength(21);
    for (const [index, name] of names.entries()) expect(name, OperationType.options[index]).not.toMatch(/^operationType\./);
    expect(new Set(names).size).toBe(21);
  });

  it('reads the sources in English as a person would', () => {
    const t = i18n.getFixedT('en', 'credits');
    expect(t('operationType.REFERRAL_REWARD')).toBe('Referral reward');
    expect(t('operationType.REFUND_TASK')).toBe('Refund for a failed task');
    expect(t('operationType.EXPIRATION')).toBe('Expired credits');
  });
});
