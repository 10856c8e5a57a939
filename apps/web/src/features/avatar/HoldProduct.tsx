import { avatarPresenters } from '@reelsmith/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callKey } from '../../shared/api/queries';
import { useTaskRun } from '../../shared/polling/useTaskRun';
import { submitGeneration, useSkuPrice } from '../generation';

/**
 * "Hold the product" (decision "Product in hand"): the chosen presenter holding a picture of the product (link to
 * video's first, or one the Avatar tool's user picks), made as a still at its price and kept as a presenter of the
 * user's own, then chosen (`onHeld`).
 */
export function HoldProduct({
  presenter,
  product,
  onHeld,
}: {
  presenter: { presenterId: string; name: string };
  product: { fileId: string } | undefined;
  onHeld: (presenterId: string) => void;
}) {
  const { t } = useTranslation('avatar');
  const price = useSkuPrice('productHolding');
  const [failed, setFailed] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const task = useTaskRun('product-holding', (answer) => {
    if (answer.status === 'SUCCESS' && answer.presenter) {
      // The held presenter is one of the user's own now: the saved presenters show it.
      void queryClient.invalidateQueries({ queryKey: callKey(avatarPresenters) });
      onHeld(answer.presenter.presenterId);
    } else setFailed(answer.error ? (JSON.parse(answer.error) as { message: string }).message : t('hold.failed'));
  });
  if (!product) return null;

  const hold = async () => {
    setFailed(null);
    const name = t('hold.name', { name: presenter.name }).slice(0, 60);
    task.follow(await submitGeneration('product-holding', { presenterId: presenter.presenterId, fileId: product.fileId, name }));
  };
  return (
    <>
      <Button loading={task.running} onClick={() => void hold().catch(() => undefined)}>
        {price === undefined ? t('hold.button') : t('hold.buttonPrice', { credits: price })}
      </Button>
      {task.running && <Typography.Text type="secondary">{t('hold.holding')}</Typography.Text>}
      {failed && <Alert type="error" showIcon title={failed} />}
    </>
  );
}
