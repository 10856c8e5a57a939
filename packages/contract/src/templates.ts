import { z } from 'zod';

/**
 * The visual styles of a link-to-video ad (decision "Ad templates"): each decides the scenes, the type, the
 * transitions and the colour treatment. The renderer's definitions are keyed by these ids.
 */
export const TEMPLATE_IDS = ['clean-studio', 'bold-ugc', 'minimal-luxury', 'sale', 'feature-list', 'problem-solution'] as const;
export const TemplateId = z.enum(TEMPLATE_IDS);
export type TemplateId = z.infer<typeof TemplateId>;

/**
 * Where a presenter stands in a link-to-video ad (decision "Presenter layouts"): full-frame for the opening line and
 * the call to action ("bookends"), or full-frame for the opening and then in a corner over, or beside on a split
 * screen, every product scene. Each template has its own; the media package's renderer is keyed by these.
 */
export const PRESENTER_LAYOUTS = ['bookends', 'corner', 'split'] as const;
export const PresenterLayout = z.enum(PRESENTER_LAYOUTS);
export type PresenterLayout = z.infer<typeof PresenterLayout>;

/** An amount as the shop writes it, normalised: digits with an optional 1–2 digit decimal part ("54", "1749.00"). */
export const Amount = z
  .string()
  .max(12)
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount such as 54.90');

/**
 * The price a product page states: what it costs now, in an ISO 4217 currency, and the price before a sale
 * (struck through on the offer card) when the page shows one higher than the price.
 */
export const ProductOffer = z
  .strictObject({
    price: Amount,
    currency: z
      .string()
      .max(3)
      .regex(/^[A-Z]{3}$/, 'must be a currency code such as USD'),
    listPrice: Amount.optional(),
  })
  .refine((o) => o.listPrice === undefined || Number(o.listPrice) > Number(o.price), {
    message: 'the price before the sale must be higher than the price',
    path: ['listPrice'],
  });
export type ProductOffer = z.infer<typeof ProductOffer>;
