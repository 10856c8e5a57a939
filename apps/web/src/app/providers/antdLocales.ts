import type { Locale } from '@reelsmith/contract';
import enUS from 'antd/locale/en_US';
import ptPT from 'antd/locale/pt_PT';
import zhCN from 'antd/locale/zh_CN';

/** antd's built-in texts (pagination, empty states, modals) follow the app's language. */
export const ANTD_LOCALES: Record<Locale, typeof enUS> = { en: enUS, zh: zhCN, pt: ptPT };
