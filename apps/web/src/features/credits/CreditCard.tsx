import { ThunderboltFilled } from '@ant-design/icons';
import { Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreditDetailsModal } from './CreditDetailsModal';
import { useCredits } from './credits';
import styles from './credits.module.css';

/**
 * The header's credit card (spec "Screens and routes"): available points with their unit, opening the credit details.
 * The number is written as plain digits, as the service counts it.
 */
export function CreditCard() {
  const { t } = useTranslation('credits');
  const account = useCredits((store) => store.account);
  const loading = useCredits((store) => store.status === 'loading');
  const [open, setOpen] = useState(false);

  let points = <span aria-hidden="true">–</span>;
  if (account) points = <span className={styles.cardPoints}>{account.availablePoints}</span>;
  else if (loading) points = <Spin size="small" />;

  return (
    <>
      <button type="button" className={styles.card} title={t('card.open')} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <ThunderboltFilled className={styles.cardIcon} aria-hidden="true" />
        {points} <span className={styles.cardUnit}>{t('card.unit')}</span>
      </button>
      <CreditDetailsModal open={open} onClose={() => setOpen(false)} />
    </>
  );
}
