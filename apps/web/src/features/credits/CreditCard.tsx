import { ThunderboltFilled } from '@ant-design/icons';
import { Spin } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../../shared/lazyNamed';
import { useCreditAccount } from './credits';
import styles from './credits.module.css';

// The details' table comes with the first opening, not with every page the header is on (decision "First-load bundle split").
const CreditDetailsModal = lazyNamed(() => import('./CreditDetailsModal'), 'CreditDetailsModal');

/**
 * The header's credit card (spec "Screens and routes"): available points with their unit, opening the credit details.
 * The number is written as plain digits, as the service counts it.
 */
export function CreditCard() {
  const { t } = useTranslation('credits');
  const { account, loading } = useCreditAccount();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps the modal's animation.
  const [opened, setOpened] = useState(false);
  const show = () => {
    setOpened(true);
    setOpen(true);
  };

  let points = <span aria-hidden="true">–</span>;
  if (account) points = <span className={styles.cardPoints}>{account.availablePoints}</span>;
  else if (loading) points = <Spin size="small" />;

  return (
    <>
      <button type="button" className={styles.card} title={t('card.open')} aria-haspopup="dialog" onClick={show}>
        <ThunderboltFilled className={styles.cardIcon} aria-hidden="true" />
        {points} <span className={styles.cardUnit}>{t('card.unit')}</span>
      </button>
      {opened && (
        <Suspense>
          <CreditDetailsModal open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
