import { pointsSkuPrice, type SkuCode } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';

/** The price of one output of a SKU (GET /points/skuPrice), or undefined while it loads. */
export function useSkuPrice(skuCode: SkuCode): number | undefined {
  const price = useQuery({ ...callQuery(pointsSkuPrice, { query: { skuCode } }), staleTime: 60_000 });
  return price.data?.price;
}

/** What a submit will cost, shown before the user submits: the SKU's price × the number of outputs. */
export function PriceTag({ skuCode, count = 1 }: { skuCode: SkuCode; count?: number }) {
  const { t } = useTranslation('generation');
  const price = useSkuPrice(skuCode);
  return (
    <Typography.Text type="secondary" aria-live="polite" data-testid="price">
      {price === undefined ? t('price.loading') : t('price.cost', { credits: price * count })}
    </Typography.Text>
  );
}
