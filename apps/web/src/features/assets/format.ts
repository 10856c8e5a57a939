import dayjs from 'dayjs';

/** A card's date, in the viewer's local time. */
export const formatCardDate = (time: string): string => dayjs(time).format('YYYY-MM-DD HH:mm');

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Storage used, in 1024-steps with one decimal above bytes: 0 B, 930 B, 14.2 MB. */
export function formatBytes(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${value.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${UNITS[unit]}`;
}
