import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { billingOffers } from '@reelsmith/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { callKey } from '../../shared/api/queries';
import { PATHS } from '../../shared/paths';
import { AccountPage } from '../../shared/ui/AccountPage';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { refreshCredits, useCreditAccount } from '../credits';
import styles from './billing.module.css';
import { PURCHASE_LATE_MS, usePurchase } from './billingApi';
import { formatCredits } from './money';

/** A payment that did not go through (or a return that names none): nothing was charged, and the way back. */
function Unpaid() {
  const { t } = useTranslation('billing');
  return (
    <section className={styles.outcome}>
      <CloseCircleFilled className={styles.outcomeUnpaid} aria-hidden="true" />
      <p className={styles.outcomeTitle}>{t('purchase.unpaid')}</p>
      <Link to={PATHS.getCredits}>{t('purchase.back')}</Link>
    </section>
  );
}

/** The credits granted, and the balance once it has been recounted with them. */
function Granted({ kind, credits }: { kind: 'pack' | 'plan'; credits: number }) {
  const { t, i18n } = useTranslation('billing');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { account } = useCreditAccount();
  const [recounted, setRecounted] = useState(false);
  useEffect(() => {
    // The header's balance and the Get credits page's plan are older than this purchase.
    void queryClient.invalidateQueries({ queryKey: callKey(billingOffers) });
    void refreshCredits().then(() => setRecounted(true));
  }, [queryClient]);
  const amount = formatCredits(credits, i18n.resolvedLanguage);
  return (
    <section className={styles.outcome} role="status">
      <CheckCircleFilled className={styles.outcomeGranted} aria-hidden="true" />
      <p className={styles.outcomeTitle}>{t('purchase.granted', { count: credits, credits: amount })}</p>
      {kind === 'plan' && <p>{t('purchase.planStarted', { credits: amount })}</p>}
      {recounted && account && <p>{t('purchase.balance', { balance: formatCredits(account.availablePoints, i18n.resolvedLanguage) })}</p>}
      <div className={styles.outcomeActions}>
        <Button
          type="primary"
          size="large"
          href={PATHS.home}
          onClick={(event) => {
            event.preventDefault();
            navigate(PATHS.home);
          }}
        >
          {t('purchase.start')}
        </Button>
        <Link to={PATHS.getCredits}>{t('purchase.back')}</Link>
      </div>
    </section>
  );
}

/** Whether `ms` have passed since the page opened. */
function useAfter(ms: number): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setPassed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return passed;
}

/**
 * Where the payment service sends the browser back after paying (`?session_id=`): follows the purchase until its
 * credits are granted, or it turns out not paid. A payment the bank confirms later may take hours; after two minutes
 * the page says the credits will come by themselves.
 */
export function PurchasePage() {
  const { t } = useTranslation('billing');
  const [search] = useSearchParams();
  const session = search.get('session_id') || null;
  const late = useAfter(PURCHASE_LATE_MS);
  const purchase = usePurchase(session, late);

  let outcome: ReactNode;
  if (!session || purchase.data?.state === 'unpaid') outcome = <Unpaid />;
  else if (purchase.data?.state === 'granted') outcome = <Granted kind={purchase.data.kind} credits={purchase.data.credits} />;
  else if (purchase.isError) outcome = <RetryAlert title={t('purchase.failed')} onRetry={() => purchase.refetch()} />;
  else
    outcome = (
      <section className={styles.outcome} role="status" aria-live="polite">
        <Spin size="large" className={styles.outcomeWaiting} />
        <p className={styles.outcomeTitle}>{t('purchase.waiting')}</p>
        {late && <p className={styles.late}>{t('purchase.late')}</p>}
      </section>
    );

  return (
    <AccountPage className={styles.frame} title={t('title')}>
      {outcome}
    </AccountPage>
  );
}
