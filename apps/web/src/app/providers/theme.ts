import { THEME_BG_BASE, THEME_PRIMARY } from '@reelsmith/contract';
import { type ThemeConfig, theme } from 'antd';

/** The dark theme of spec "What the product does": antd's dark algorithm seeded with the brand colours. */
export const THEME: ThemeConfig = {
  algorithm: theme.darkAlgorithm,
  // antd's mask (45 % black) barely dims a page that is already dark: dialogs get 65 %.
  token: {
    colorPrimary: THEME_PRIMARY,
    colorLink: THEME_PRIMARY,
    colorBgBase: THEME_BG_BASE,
    borderRadius: 10,
    colorBgMask: 'rgba(0, 0, 0, 0.65)',
  },
  components: {
    // A picture enlarged to full screen is looked at alone: the page behind all but disappears.
    Image: { colorBgMask: 'rgba(0, 0, 0, 0.92)' },
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
