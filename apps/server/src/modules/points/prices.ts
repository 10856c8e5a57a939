import { type OperationType, SkuCode } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { prices } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/** The tool whose generations a SKU prices, by the SKU code's prefix: what a charge is called in the history. */
const TOOL_TYPES: Array<[prefix: string, type: OperationType]> = [
  ['link2V_', 'LINK_TO_VIDEO'],
  ['videoTemplate_', 'TEMPLATE_TO_VIDEO'],
  ['t2Video_', 'TEXT_TO_VIDEO'],
  ['img2Video_', 'IMAGE_TO_VIDEO'],
  ['img2VideoLocal_', 'IMAGE_TO_VIDEO'],
  ['imageGen', 'TEXT_TO_IMAGE'],
  ['imageTryOn', 'VIRTUAL_TRY_ON'],
  ['imageBg', 'AI_BACKGROUND'],
  ['extendImg', 'EXTEND_IMAGE'],
  ['imageEnhance', 'UPSCALE_IMAGE'],
  ['avatarVideo', 'AVATAR_VIDEO'],
  ['productHolding', 'PRODUCT_HOLDING'],
];

/** The operation type of a charge for a SKU; a SKU of no known tool is a plain DEDUCTION. */
export const operationTypeOfSku = (sku: SkuCode): OperationType =>
  TOOL_TYPES.find(([prefix]) => sku.startsWith(prefix))?.[1] ?? 'DEDUCTION';

/** Narrows what a caller sent to a SKU code, or fails with the unknownSku message naming it. */
export function skuCodeOf(raw: string): SkuCode {
  const parsed = SkuCode.safeParse(raw);
  if (!parsed.success) throw new AppError('unknownSku', { sku: raw });
  return parsed.data;
}

/** The price of one output of a SKU, in credits. */
export async function priceOf(db: Queryable, sku: SkuCode): Promise<number> {
  const [row] = await db.select({ price: prices.price }).from(prices).where(eq(prices.skuCode, sku)).limit(1);
  if (!row) throw new AppError('unknownSku', { sku });
  return row.price;
}

/** Every price, in the contract's order of SKU codes. */
export async function listPrices(db: Queryable) {
  const rows = await db.select().from(prices);
  const order = new Map(SkuCode.options.map((sku, i) => [sku, i]));
  return rows.sort((a, b) => (order.get(a.skuCode) ?? 0) - (order.get(b.skuCode) ?? 0));
}

export async function setPrice(db: Queryable, sku: SkuCode, price: number) {
  const [row] = await db.update(prices).set({ price, updatedAt: new Date() }).where(eq(prices.skuCode, sku)).returning();
  if (!row) throw new AppError('unknownSku', { sku });
  return row;
}
