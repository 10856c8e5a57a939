import { CopyOutlined, GiftOutlined, SafetyCertificateOutlined, UserAddOutlined } from '@ant-design/icons';
import { REFERRAL_FRIEND_CREDITS, REFERRAL_INVITER_CREDITS, REFERRAL_INVITER_MONTHLY_CAP, referralInfo } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Progress, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';
import { AccountPage } from '../../shared/ui/AccountPage';
import { Busy } from '../../shared/ui/Busy';
import { copyText } from '../../shared/ui/copyText';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import { Invitees } from './Invitees';
import styles from './invite.module.css';

/** The rules of the invite programme (spec "What the product does", "Business constants"), with the programme's own numbers. */
function Rules() {
  const { t } = useTranslation('invite');
  const rules = [
    { key: 'friend', icon: <UserAddOutlined />, text: t('rules.friend', { credits: REFERRAL_FRIEND_CREDITS }) },
    {
      key: 'inviter',
      icon: <GiftOutlined />,
      text: t('rules.inviter', { credits: REFERRAL_INVITER_CREDITS, cap: REFERRAL_INVITER_MONTHLY_CAP }),
    },
    { key: 'permanent', icon: <SafetyCertificateOutlined />, text: t('rules.permanent') },
  ];
  return (
    <section className={styles.panel} aria-labelledby="invite-rules">
      <h2 id="invite-rules">{t('rules.title')}</h2>
      <ul className={styles.rules}>
        {rules.map(({ key, icon, text }) => (
          <li key={key}>
            <span className={styles.ruleIcon} aria-hidden="true">
              {icon}
            </span>
            {text}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The invite-friends page (spec "Screens and routes" Screen 6): the rules, the personal link to copy, this month's reward and the friends who joined. */
export function InvitePage() {
  const { t } = useTranslation('invite');
  const info = useQuery(callQuery(referralInfo));

  let details: ReactNode;
  if (info.isPending) details = <Busy />;
  else if (info.isError) details = <RetryAlert title={t('failed')} onRetry={() => info.refetch()} />;
  else {
    const { inviteLink, inviteCode, monthlyRewarded, monthlyCap, invitees } = info.data;
    details = (
      <>
        <section className={styles.panel} aria-labelledby="invite-link">
          <h2 id="invite-link">{t('link.title')}</h2>
          <Space.Compact block>
            <Input size="large" readOnly value={inviteLink} aria-label={t('link.label')} onFocus={(event) => event.target.select()} />
            <Button size="large" type="primary" icon={<CopyOutlined />} onClick={() => copyText(inviteLink, t('link.copied'))}>
              {t('link.copy')}
            </Button>
          </Space.Compact>
          <p className={styles.note}>{t('link.code', { code: inviteCode })}</p>
        </section>
        <section className={styles.panel} aria-labelledby="invite-month">
          <h2 id="invite-month">{t('month.title')}</h2>
          <p className={styles.month}>{t('month.progress', { rewarded: monthlyRewarded, cap: monthlyCap })}</p>
          <Progress percent={monthlyCap > 0 ? Math.min(100, (monthlyRewarded / monthlyCap) * 100) : 0} showInfo={false} />
          {monthlyRewarded >= monthlyCap && <p className={styles.note}>{t('month.capReached')}</p>}
        </section>
        <Invitees invitees={invitees} />
      </>
    );
  }

  return (
    <AccountPage title={t('title')} lead={t('subtitle')} narrow>
      <Rules />
      {details}
    </AccountPage>
  );
}
