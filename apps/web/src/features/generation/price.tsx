import { pointsSkuPrice, type SkuCode } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';

/**
 * The price of one output of a SKU (GET /points/skuPrice), or undefined while it loads, or while the SKU itself
 * is not known yet (it may depend on what the server answers, e.g. which engine makes a video).
 */
export function useSkuPrice(skuCode: SkuCode | undefined): number | undefined {
  const price = useQuery({
    ...callQuery(pointsSkuPrice, { query: { skuCode: skuCode as SkuCode } }),
    staleTime: 60_000,
    enabled: skuCode !== undefined,
  });
  return price.data?.price;
}

/** What a submit will cost, shown before the user submits: the SKU's price × the number of outputs. */
export function PriceTag({ skuCode, count = 1 }: { skuCode: SkuCode | undefined; count?: number }) {
  const { t } = useTranslation('generation');
  const price = useSkuPrice(skuCode);
  return (
    <Typography.Text type="secondary" aria-live="polite" data-testid="price">
      {price === undefined ? t('price.loading') : t('price.cost', { credits: price * count })}
    </Typography.Text>
  );
}
