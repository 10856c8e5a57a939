import { REFERRAL_INVITER_CREDITS } from '@reelsmith/contract';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../shared/paths';
import { useCreditAccount } from '../credits';

/**
 * How many credits an action costing `credits` lacks against the balance (decision "Short of credits"): 0 when the
 * balance covers it, or while the price or the balance is not known yet (the server still refuses what is not covered).
 */
export function useShortfall(credits: number | undefined): number {
  const available = useCreditAccount().account?.availablePoints;
  if (credits === undefined || available === undefined) return 0;
  return Math.max(0, credits - available);
}

/**
 * Said in place of a confirmation the balance cannot honour: how many credits are missing, and how to get them (buy
 * them, or earn them by inviting friends). `compact` is one line, for a sticky bar that must stay small on a phone:
 * it leads to the Get credits page only, which leads on to inviting friends.
 */
export function ShortOfCredits({ missing, compact = false }: { missing: number; compact?: boolean }) {
  const { t } = useTranslation('generation');
  if (missing <= 0) return null;
  const getCredits = <Link to={PATHS.getCredits}>{t('short.getCredits')}</Link>;
  const invite = <Link to={PATHS.invite}>{t('short.invite')}</Link>;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title={
        compact ? (
          <>
            {t('short.title', { count: missing })} {getCredits}
          </>
        ) : (
          t('short.title', { count: missing })
        )
      }
      description={
        compact ? undefined : (
          <>
            {getCredits} · {t('short.earn', { credits: REFERRAL_INVITER_CREDITS })} {invite}
          </>
        )
      }
    />
  );
}
