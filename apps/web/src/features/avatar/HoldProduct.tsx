import { avatarPresenters, health, type WornGarmentType } from '@reelsmith/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Select, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callKey, callQuery } from '../../shared/api/queries';
import { useTaskRun } from '../../shared/polling/useTaskRun';
import { Field, submitGeneration, usePricedAction } from '../generation';
import styles from './avatar.module.css';

/** A picture of the product the presenter may be given: one of the user's stored files. */
export interface ProductPicture {
  fileId: string;
  url: string;
  name: string;
}

/** How the presenter shows the product: held, or worn as one garment (decision "Product in hand"). */
type Shown = 'hold' | WornGarmentType;
const SHOWN: readonly Shown[] = ['hold', 'top', 'bottom', 'onePiece'];
/** What the panel says, held or worn. */
const WORDS = {
  held: { button: 'hold.button', priced: 'hold.buttonPrice', busy: 'hold.holding', failed: 'hold.failed', name: 'hold.name' },
  worn: { button: 'hold.wear', priced: 'hold.wearPrice', busy: 'hold.wearing', failed: 'hold.wearFailed', name: 'hold.wornName' },
} as const;

/**
 * Whether this server can dress a presenter: /health names a try-on provider (a vendor's, or the sandbox's outside
 * production). Not while it is unknown: holding is offered alone then.
 */
function useCanWear(): boolean {
  const providers = useQuery({ ...callQuery(health), staleTime: Number.POSITIVE_INFINITY }).data?.engine.providers;
  return typeof providers === 'object' && providers !== null && typeof (providers as Record<string, unknown>).virtualTryOn === 'string';
}

/** Which of the product's pictures is given: small thumbnails, one chosen (link to video's project has several). */
function PictureChoice({
  pictures,
  chosen,
  onChoose,
}: {
  pictures: readonly ProductPicture[];
  chosen: string;
  onChoose: (fileId: string) => void;
}) {
  const { t } = useTranslation('avatar');
  const id = useId();
  return (
    <div className={styles.pictures}>
      <span id={`${id}-label`} className={styles.label}>
        {t('hold.picture')}
      </span>
      <div role="radiogroup" aria-labelledby={`${id}-label`} className={styles.thumbnails}>
        {pictures.map((picture, index) => (
          <label key={picture.fileId} className={styles.thumbnail} title={picture.name}>
            <input
              type="radio"
              name={id}
              checked={picture.fileId === chosen}
              onChange={() => onChoose(picture.fileId)}
              aria-label={t('hold.pictureN', { n: index + 1 })}
            />
            <img src={picture.url} alt="" />
          </label>
        ))}
      </div>
    </div>
  );
}

/**
 * "Hold the product" (decision "Product in hand"): the chosen presenter holding a picture of the product (one of link
 * to video's, or the one the Avatar tool's user picks), or wearing it when it is a garment and this server can dress
 * people, made as a still at the price of what is made and kept as a presenter of the user's own, then chosen
 * (`onHeld`).
 */
export function HoldProduct({
  presenter,
  pictures,
  onHeld,
}: {
  presenter: { presenterId: string; name: string };
  pictures: readonly ProductPicture[];
  onHeld: (presenterId: string) => void;
}) {
  const { t } = useTranslation('avatar');
  const id = useId();
  const canWear = useCanWear();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown>('hold');
  const worn = canWear && shown !== 'hold' ? shown : undefined;
  const words = WORDS[worn ? 'worn' : 'held'];
  const label = usePricedAction(worn ? 'imageTryOn' : 'productHolding', t(words.button), (credits) => t(words.priced, { credits }));
  const [failed, setFailed] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const task = useTaskRun('product-holding', (answer) => {
    if (answer.status === 'SUCCESS' && answer.presenter) {
      // The held presenter is one of the user's own now: the saved presenters show it.
      void queryClient.invalidateQueries({ queryKey: callKey(avatarPresenters) });
      onHeld(answer.presenter.presenterId);
    } else setFailed(answer.error ? (JSON.parse(answer.error) as { message: string }).message : t(words.failed));
  });
  // The first picture until another is chosen (or the chosen one is gone).
  const product = pictures.find((picture) => picture.fileId === chosenId) ?? pictures[0];
  if (!product) return null;

  const hold = async () => {
    setFailed(null);
    const name = t(words.name, { name: presenter.name }).slice(0, 60);
    const input = { presenterId: presenter.presenterId, fileId: product.fileId, name, ...(worn ? { garmentType: worn } : {}) };
    task.follow(await submitGeneration('product-holding', input));
  };
  return (
    <div className={styles.hold}>
      {pictures.length > 1 && <PictureChoice pictures={pictures} chosen={product.fileId} onChoose={setChosenId} />}
      {canWear && (
        <div className={styles.shown}>
          <Field id={`${id}-shown`} label={t('hold.shown')}>
            <Select<Shown>
              id={`${id}-shown`}
              value={shown}
              disabled={task.running}
              options={SHOWN.map((value) => ({ value, label: t(`hold.shownAs.${value}`) }))}
              onChange={setShown}
            />
          </Field>
        </div>
      )}
      <Button loading={task.running} onClick={() => void hold().catch(() => undefined)}>
        {label}
      </Button>
      {task.running && <Typography.Text type="secondary">{t(words.busy)}</Typography.Text>}
      {failed && <Alert type="error" showIcon title={failed} />}
    </div>
  );
}
