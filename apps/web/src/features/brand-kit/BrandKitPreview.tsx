import { BRAND_FONTS } from '@reelsmith/contract';
import { useTranslation } from 'react-i18next';
import styles from './brandKit.module.css';
import type { BrandKitDraft } from './draft';

/** Relative luminance of `#rrggbb` (WCAG), to set the button's text dark on a light colour and light on a dark one. */
export function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** A sketch of an end card in the kit being edited, so a change is seen before it is saved. */
export function BrandKitPreview({ draft }: { draft: BrandKitDraft }) {
  const { t } = useTranslation('brand-kit');
  const font = BRAND_FONTS[draft.fontId];
  return (
    <figure className={styles.preview} aria-label={t('preview')}>
      <div className={styles.card} style={{ fontFamily: font.cssFamily, color: draft.primaryColor }}>
        {draft.logo && <img className={styles.cardLogo} src={draft.logo.url} alt="" />}
        <strong className={styles.cardTitle} style={{ fontWeight: font.cssWeight }}>
          {t('previewProduct')}
        </strong>
        <span className={styles.cardPrice} style={{ color: draft.secondaryColor }}>
          $29.90
        </span>
        <span
          className={styles.cardButton}
          style={{ background: draft.secondaryColor, color: luminance(draft.secondaryColor) > 0.4 ? '#111111' : '#ffffff' }}
        >
          {draft.callToAction.trim()}
        </span>
      </div>
      <figcaption className={styles.hint}>{t('preview')}</figcaption>
    </figure>
  );
}
