import { ClockCircleOutlined, GiftOutlined, ThunderboltFilled } from '@ant-design/icons';
import { type ExpiringCredits, REFERRAL_INVITER_CREDITS, SIGNUP_CREDIT_DAYS } from '@reelsmith/contract';
import { Button, Modal, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PATHS } from '../../shared/paths';
import { CreditHistory } from './CreditHistory';
import { useCreditAccount } from './credits';
import styles from './credits.module.css';

/**
 * The credit details of spec "Screens and routes"/"Roles and permissions": the balance with the way to get more, then the
 * Earned and Used histories. Its content is destroyed on close, so both lists start again from their first page next time.
 */
export function CreditDetailsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('credits');
  const { account } = useCreditAccount();
  const navigate = useNavigate();
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'long' });
  const expiringLine = (lot: ExpiringCredits) =>
    t('details.expiring', {
      points: lot.points,
      source: t(`operationType.${lot.operationType}`),
      date: date.format(new Date(lot.expiresAt)),
    });
  return (
    <Modal open={open} onCancel={onClose} title={t('details.title')} footer={null} width={720} destroyOnHidden>
      {account && (
        <dl className={styles.summary}>
          <div>
            <dt>{t('details.available')}</dt>
            <dd className={styles.summaryMain}>{account.availablePoints}</dd>
          </div>
          <div>
            <dt>{t('details.used')}</dt>
            <dd>{account.usedPoints}</dd>
          </div>
          <div>
            <dt>{t('details.expired')}</dt>
            <dd>{account.expiredPoints}</dd>
          </div>
        </dl>
      )}
      <div className={styles.expiryRow}>
        <div className={styles.expiry}>
          {account?.expiring.map((lot) => (
            <p key={`${lot.operationType}-${lot.expiresAt}`} className={styles.expiring}>
              <ClockCircleOutlined aria-hidden="true" />
              {expiringLine(lot)}
            </p>
          ))}
          <p>{t('details.expiryRule', { days: SIGNUP_CREDIT_DAYS })}</p>
        </div>
        {/* Always offered: where buying is off, the page says whom to ask. */}
        <Button
          type="primary"
          icon={<ThunderboltFilled />}
          href={PATHS.getCredits}
          onClick={(event) => {
            event.preventDefault();
            onClose();
            navigate(PATHS.getCredits);
          }}
        >
          {t('details.getCredits')}
        </Button>
      </div>
      <Tabs
        items={(['gained', 'used'] as const).map((tab) => ({
          key: tab,
          label: t(`details.tabs.${tab}`),
          children: <CreditHistory tab={tab} />,
        }))}
      />
      <p className={styles.invite}>
        <GiftOutlined aria-hidden="true" />
        {t('details.invite', { credits: REFERRAL_INVITER_CREDITS })}
        <Link to={PATHS.invite} onClick={onClose}>
          {t('details.inviteLink')}
        </Link>
      </p>
    </Modal>
  );
}
