/**
 * The name an exported video downloads under (decision "Export file names"): `<project>-<n>-<length>s.mp4`, the
 * project's name (or the product's, before the user names it) in letters, figures and dashes only, so it is a
 * valid file name on every system and reads the same in a download bar. Chinese and accented letters stay.
 */
const MAX_NAME = 60;

export function exportFileName(name: string, preview: number, seconds: number): string {
  const safe = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/gu, '');
  const cut = [...safe].slice(0, MAX_NAME).join('').replace(/-+$/u, '');
  return `${cut || 'video'}-${preview}-${seconds}s.mp4`;
}
