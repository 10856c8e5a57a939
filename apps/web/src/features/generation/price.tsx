import { type GenerationCapability, pointsSkuPrice, type SkuCode } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { callQuery } from '../../shared/api/queries';

/**
 * The price of one output of a SKU (GET /points/skuPrice), or undefined while it loads, or while the SKU itself
 * is not known yet (it may depend on what the server answers, e.g. which engine makes a video).
 */
export function useSkuPrice(skuCode: SkuCode | undefined): number | undefined {
  return useSkuQuote(skuCode)?.price;
}

/** The price with whether a stand-in does the work here (then it is 0: decision "Stand-ins are free"). */
export function useSkuQuote(skuCode: SkuCode | undefined, madeBy?: GenerationCapability): { price: number; standIn: boolean } | undefined {
  const quote = useQuery({
    ...callQuery(pointsSkuPrice, { query: { skuCode: skuCode as SkuCode, ...(madeBy ? { madeBy } : {}) } }),
    staleTime: 60_000,
    enabled: skuCode !== undefined,
  });
  return quote.data;
}

/** What a submit will cost, shown before the user submits: the SKU's price × the number of outputs, or free. */
export function PriceTag({ skuCode, count = 1, madeBy }: { skuCode: SkuCode | undefined; count?: number; madeBy?: GenerationCapability }) {
  const { t } = useTranslation('generation');
  const quote = useSkuQuote(skuCode, madeBy);
  return (
    <Typography.Text type="secondary" aria-live="polite" data-testid="price">
      {quote === undefined ? t('price.loading') : quote.standIn ? t('price.standIn') : t('price.cost', { credits: quote.price * count })}
    </Typography.Text>
  );
}

/**
 * A button's words with its price ("Hold the product (4 credits)"), or marked free where a stand-in does the work;
 * the bare words while the price loads.
 */
export function usePricedAction(skuCode: SkuCode | undefined, action: string, priced: (credits: number) => string): string {
  const { t } = useTranslation('generation');
  const quote = useSkuQuote(skuCode);
  if (!quote) return action;
  return quote.standIn ? t('price.freeAction', { action }) : priced(quote.price);
}

/** Said before a tool runs on the sandbox: what the user gets is a free, marked stand-in, not a real result. */
export function StandInNotice({ skuCode, madeBy }: { skuCode: SkuCode | undefined; madeBy?: GenerationCapability }) {
  const { t } = useTranslation('generation');
  return useSkuQuote(skuCode, madeBy)?.standIn ? <Alert type="info" showIcon title={t('price.standInNotice')} /> : null;
}
