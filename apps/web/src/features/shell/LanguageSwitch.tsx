import { GlobalOutlined } from '@ant-design/icons';
import { isLocale, LOCALES } from '@reelsmith/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { locale } from '../../shared/i18n/i18n';
import { LANGUAGES, saveLocale } from '../../shared/i18n/locale';
import { MenuDropdown } from './MenuDropdown';
import styles from './shell.module.css';

/** English, 简体中文, Português: the choice is saved for a year and the page reloads in it (spec "Screens and routes"). */
export function LanguageSwitch() {
  const { t } = useTranslation('shell');
  const choose = ({ key }: { key: string }) => {
    if (!isLocale(key) || key === locale) return;
    saveLocale(key);
    window.location.reload();
  };
  return (
    <MenuDropdown
      menu={{
        items: LOCALES.map((code) => ({ key: code, label: <span lang={LANGUAGES[code].htmlLang}>{LANGUAGES[code].name}</span> })),
        selectable: true,
        selectedKeys: [locale],
        onClick: choose,
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('header.language', { language: LANGUAGES[locale].name })}>
        {/* Only the globe on a phone (decision "Phone layout"); the button's label still names the language. */}
        <span className={styles.languageName}>{LANGUAGES[locale].name}</span>
      </Button>
    </MenuDropdown>
  );
}
