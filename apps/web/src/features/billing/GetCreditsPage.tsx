import { CheckCircleFilled, GiftOutlined, LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { BillingOffer, BillingPlan } from '@reelsmith/contract';
import { Alert, Button, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../shared/paths';
import { AccountPage } from '../../shared/ui/AccountPage';
import { Busy } from '../../shared/ui/Busy';
import { RetryAlert } from '../../shared/ui/RetryAlert';
import styles from './billing.module.css';
import { useCheckout, useOffers, usePortal } from './billingApi';
import { formatCredits, formatPrice } from './money';

/** Stripe's subscription statuses this page names; another is shown as the service wrote it. */
const STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused']);
/** A plan in these has ended or never started: another may be subscribed to. */
const OVER = new Set(['canceled', 'incomplete_expired']);
/** A plan in these is owed a payment: the user is told to fix the card. */
const OWING = new Set(['past_due', 'unpaid']);

function useFormats() {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.resolvedLanguage;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long' });
  return {
    t,
    price: (offer: BillingOffer) => formatPrice(offer.price, locale),
    credits: (credits: number) => formatCredits(credits, locale),
    date: (iso: string) => date.format(new Date(iso)),
  };
}

/** The user's monthly plan: its credits a month, its state, and when it renews or ends. */
function CurrentPlan({ plan }: { plan: BillingPlan }) {
  const { t, credits, date } = useFormats();
  const status = STATUSES.has(plan.status) ? t(`plan.status.${plan.status}`) : plan.status;
  let period: string | null = null;
  if (plan.periodEnd) period = t(plan.endsAtPeriodEnd ? 'plan.ends' : 'plan.renews', { date: date(plan.periodEnd) });
  return (
    <section className={styles.panel} aria-labelledby="billing-plan">
      <h2 id="billing-plan">{t('plan.title')}</h2>
      <div className={styles.plan}>
        <span className={styles.planName}>{t('plan.name', { count: plan.credits, credits: credits(plan.credits) })}</span>
        <Tag color={OWING.has(plan.status) ? 'warning' : plan.status === 'active' ? 'success' : 'default'}>{status}</Tag>
      </div>
      {period && <p className={styles.note}>{period}</p>}
      {OWING.has(plan.status) && <Alert className={styles.planAlert} type="warning" showIcon title={t('plan.pastDue')} />}
    </section>
  );
}

interface OfferCardProps {
  offer: BillingOffer;
  name: string;
  price: string;
  perk: ReactNode;
  action: ReactNode;
  current?: boolean;
}

function OfferCard({ offer, name, price, perk, action, current = false }: OfferCardProps) {
  return (
    <li className={current ? styles.offerCurrent : styles.offer} aria-label={name} data-offer={offer.code}>
      <div className={styles.offerHead}>
        <span className={styles.offerCredits}>{name}</span>
        <span className={styles.offerPrice}>{price}</span>
      </div>
      <span className={styles.offerPerk}>{perk}</span>
      {action}
    </li>
  );
}

/** The other way to credits: inviting friends. */
function InviteNote() {
  const { t } = useTranslation('billing');
  return (
    <p className={styles.note}>
      <GiftOutlined aria-hidden="true" /> {t('invite.text')} <Link to={PATHS.invite}>{t('invite.link')}</Link>
    </p>
  );
}

/** Said when the operator has connected no payment service: credits come from the administrator, or from inviting friends. */
function BuyingOff() {
  const { t } = useTranslation('billing');
  return (
    <section className={styles.panel}>
      <p className={styles.off}>{t('off')}</p>
      <InviteNote />
    </section>
  );
}

/**
 * The Get credits page: top-up packs bought once and monthly plans, each paid on the payment service's own page, the
 * user's plan with the way to manage it; or, where the operator sells nothing, who to ask.
 */
export function GetCreditsPage() {
  const { t, price, credits } = useFormats();
  const offers = useOffers();
  const checkout = useCheckout();
  const portal = usePortal();
  const [search, setSearch] = useSearchParams();
  const cancelled = search.get('cancelled') === '1';
  const busy = checkout.going || portal.going;

  let details: ReactNode;
  if (offers.isPending) details = <Busy />;
  else if (offers.isError) details = <RetryAlert title={t('failed')} onRetry={() => offers.refetch()} />;
  else if (!offers.data.enabled) details = <BuyingOff />;
  else {
    const { packs, plans, plan } = offers.data;
    const holding = plan !== null && !OVER.has(plan.status);
    const buy = (offer: BillingOffer, label: string, disabled = false) => (
      <Button
        type="primary"
        block
        loading={checkout.target === offer.code}
        disabled={disabled || (busy && checkout.target !== offer.code)}
        onClick={() => checkout.open(offer.code)}
      >
        {label}
      </Button>
    );
    const planAction = (offer: BillingOffer) => {
      if (holding && plan.code === offer.code)
        return (
          <Button block disabled icon={<CheckCircleFilled />}>
            {t('plans.current')}
          </Button>
        );
      if (holding)
        return (
          <>
            <span className={styles.offerHint}>{t('plans.change')}</span>
            {buy(offer, t('plans.subscribe'), true)}
          </>
        );
      return buy(offer, t('plans.subscribe'));
    };
    details = (
      <>
        {plan && <CurrentPlan plan={plan} />}
        {packs.length > 0 && (
          <section className={styles.panel} aria-labelledby="billing-packs">
            <h2 id="billing-packs">{t('packs.title')}</h2>
            <ul className={styles.offers}>
              {packs.map((offer) => (
                <OfferCard
                  key={offer.code}
                  offer={offer}
                  name={t('packs.credits', { count: offer.credits, credits: credits(offer.credits) })}
                  price={price(offer)}
                  perk={
                    <>
                      <SafetyCertificateOutlined aria-hidden="true" />{' '}
                      {offer.expiresDays ? t('packs.validFor', { count: offer.expiresDays }) : t('packs.noExpiry')}
                    </>
                  }
                  action={buy(offer, t('packs.buy'))}
                />
              ))}
            </ul>
          </section>
        )}
        {plans.length > 0 && (
          <section className={styles.panel} aria-labelledby="billing-plans">
            <h2 id="billing-plans">{t('plans.title')}</h2>
            <ul className={styles.offers}>
              {plans.map((offer) => (
                <OfferCard
                  key={offer.code}
                  offer={offer}
                  name={t('plan.name', { count: offer.credits, credits: credits(offer.credits) })}
                  price={t('plans.perMonth', { price: price(offer) })}
                  perk={t('plans.renewal')}
                  action={planAction(offer)}
                  current={holding && plan.code === offer.code}
                />
              ))}
            </ul>
          </section>
        )}
        {packs.length === 0 && plans.length === 0 && <p className={styles.note}>{t('empty')}</p>}
        <footer className={styles.footer}>
          <p className={styles.secure}>
            <LockOutlined aria-hidden="true" /> {t('secure')}
          </p>
          <InviteNote />
        </footer>
      </>
    );
  }

  const enabled = offers.data?.enabled === true;
  return (
    <AccountPage
      className={styles.frame}
      title={t('title')}
      lead={enabled && t('subtitle')}
      actions={
        enabled && (
          <Button loading={portal.going} disabled={busy && !portal.going} onClick={() => portal.open(undefined)}>
            {t('manage')}
          </Button>
        )
      }
    >
      {cancelled && <Alert type="info" showIcon closable={{ onClose: () => setSearch({}, { replace: true }) }} title={t('cancelled')} />}
      {details}
    </AccountPage>
  );
}
