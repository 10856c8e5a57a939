import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCreditAccount } from '../../credits';
import { ShortOfCredits, useShortfall, useSkuPrice } from '../../generation';
import styles from '../flow.module.css';

/** A render that costs more than this many credits is confirmed first (decision "Render price and confirmation"). */
const CONFIRM_OVER = 10;

interface RenderButtonProps {
  count: number;
  seconds: 15 | 30 | 45;
  /** The seconds the chosen videos' presenters are on camera: their lip-synced clips are made and charged now. */
  presenterSeconds: number;
  loading: boolean;
  onRender: () => void;
}

/**
 * Render the selected previews: the price on the button (the export price of the video's length × the count, and
 * the presenters' seconds on camera at the presenter price: decision "Presenter in link to video"), and
 * a confirmation saying what will be left when it costs more than a few credits or its price is not known yet.
 */
export function RenderButton({ count, seconds, presenterSeconds, loading, onRender }: RenderButtonProps) {
  const { t } = useTranslation('link-to-video');
  const unit = useSkuPrice(`link2V_${seconds}s`);
  const perSecond = useSkuPrice('avatarVideo');
  const available = useCreditAccount().account?.availablePoints;
  const presenter = presenterSeconds > 0 ? perSecond : 0;
  const credits = unit === undefined || presenter === undefined ? undefined : unit * count + presenter * presenterSeconds;
  const label = credits === undefined ? t('preview.render', { count }) : t('preview.renderFor', { count, credits });
  // A render the balance cannot cover is not offered, and no confirmation promises it (decision "Short of credits").
  const missing = useShortfall(count > 0 ? credits : undefined);
  const confirm = count > 0 && missing === 0 && (credits === undefined || credits > CONFIRM_OVER);
  const button = (
    <Button type="primary" size="large" disabled={count === 0 || missing > 0} loading={loading} onClick={confirm ? undefined : onRender}>
      {label}
    </Button>
  );
  if (missing > 0) {
    return (
      <div className={styles.short}>
        <ShortOfCredits missing={missing} />
        {button}
      </div>
    );
  }
  if (!confirm) return button;
  return (
    <Popconfirm
      title={credits === undefined ? t('preview.confirmTitle', { count }) : t('preview.confirmPrice', { count, credits })}
      description={
        credits !== undefined && available !== undefined ? t('preview.confirmLeft', { left: Math.max(0, available - credits) }) : undefined
      }
      okText={t('preview.confirmOk')}
      cancelText={t('preview.confirmCancel')}
      onConfirm={onRender}
    >
      {button}
    </Popconfirm>
  );
}
