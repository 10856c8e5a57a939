import { THEME_BG_BASE, THEME_PRIMARY } from '@reelsmith/contract';
import { type ThemeConfig, theme } from 'antd';

/** The dark theme of spec "What the product does": antd's dark algorithm seeded with the brand colours. */
export const THEME: ThemeConfig = {
  algorithm: theme.darkAlgorithm,
  token: { colorPrimary: THEME_PRIMARY, colorLink: THEME_PRIMARY, colorBgBase: THEME_BG_BASE, borderRadius: 10 },
  components: {
    // Dark text on the bright green reads better than white.
    Button: { primaryColor: THEME_BG_BASE, fontWeight: 600 },
    Menu: { itemBg: 'transparent', activeBarBorderWidth: 0, itemBorderRadius: 10, itemMarginInline: 0 },
  },
};

/** The same colours for the app's own CSS, which reads them as custom properties. */
export function applyThemeColors(root: HTMLElement): void {
  root.style.setProperty('--rs-primary', THEME_PRIMARY);
  root.style.setProperty('--rs-bg-base', THEME_BG_BASE);
}
