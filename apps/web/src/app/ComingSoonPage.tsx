import { RocketOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../shared/paths';
import styles from './ComingSoonPage.module.css';
import { useCurrentRoute } from './currentRoute';

/** The page of a tool that ships in a later release: its name and a plain statement that it is not here yet. */
export function ComingSoonPage() {
  const { t } = useTranslation('app');
  const route = useCurrentRoute();
  const navigate = useNavigate();
  return (
    <section className={styles.page} aria-labelledby="coming-soon-title">
      <div className={styles.icon} aria-hidden="true">
        <RocketOutlined />
      </div>
      <Tag color="green" variant="filled">
        {t('comingSoon.badge')}
      </Tag>
      <h1 id="coming-soon-title" className={styles.title}>
        {t(route.title)}
      </h1>
      <p className={styles.note}>{t('comingSoon.note')}</p>
      <Button onClick={() => navigate(PATHS.home)}>{t('comingSoon.home')}</Button>
    </section>
  );
}
