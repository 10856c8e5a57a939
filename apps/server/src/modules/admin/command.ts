import { GrantType, Locale, SkuCode, UserStatus } from '@reelsmith/contract';
import { z } from 'zod';

/**
 * The admin CLI's commands as data: the CLI builds one from its arguments and has it run by the server or
 * runs it itself (commands.ts). Kept apart from the services so the CLI starts without loading them.
 */
export const AdminCommand = z.discriminatedUnion('command', [
  z.strictObject({
    command: z.literal('invites create'),
    count: z.number().int().min(1).max(1000).default(1),
    uses: z.number().int().min(1).max(1_000_000).default(1),
    expiresDays: z.number().int().min(1).max(3650).optional(),
  }),
  z.strictObject({ command: z.literal('users list') }),
  z.strictObject({ command: z.literal('users status'), email: z.email(), status: UserStatus }),
  // Cancels the user's running batches and unfinished tasks, refunded (decision "An operator's block").
  z.strictObject({ command: z.literal('tasks cancel'), email: z.email() }),
  z.strictObject({ command: z.literal('prices list') }),
  z.strictObject({ command: z.literal('prices set'), skuCode: SkuCode, price: z.number().int().min(0).max(1_000_000) }),
  z.strictObject({
    command: z.literal('credits grant'),
    email: z.email(),
    amount: z.number().int().min(1).max(1_000_000),
    // The ways an operator gives credits; sign-up, referral and refund credits come from their own events.
    type: GrantType.extract(['PROMOTION', 'ADJUSTMENT', 'RECHARGE', 'SUBSCRIPTION_PLAN']),
    expiresDays: z.number().int().min(1).max(3650).optional(),
  }),
  z.strictObject({ command: z.literal('credits audit') }),
  // What is on sale (decision "Buying credits"): `billing packs|plans [list]`, `… add CODE --credits N --stripe-price
  // PRICE [--expires-days D]` (packs only expire when D is given), `… retire CODE`.
  ...(['billing packs', 'billing plans'] as const).map((name) =>
    z
      .strictObject({
        command: z.literal(name),
        action: z.enum(['list', 'add', 'retire']).default('list'),
        code: z
          .string()
          .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a code is lower-case letters, digits and dashes')
          .optional(),
        credits: z.number().int().min(1).max(1_000_000).optional(),
        stripePrice: z
          .string()
          .regex(/^price_\w+$/, 'a Stripe price id (price_…)')
          .optional(),
        expiresDays: z.number().int().min(1).max(3650).optional(),
      })
      .refine((c) => c.action === 'list' || c.code, 'name the offer: its CODE')
      .refine((c) => c.action !== 'add' || (c.credits && c.stripePrice), 'add needs --credits and --stripe-price'),
  ),
  z.strictObject({ command: z.literal('billing events'), email: z.email().optional() }),
  // The presenters' catalogue (decision "Presenters"): offered to every user of the Avatar tool.
  z.strictObject({
    command: z.literal('presenters add'),
    name: z.string().trim().min(1).max(60),
    gender: z.enum(['female', 'male']),
    /** Comma-separated on the command line (en,zh,pt); a list once parsed, as it travels to a running server. */
    languages: z.preprocess(
      (list) => (typeof list === 'string' ? list.split(',').map((language) => language.trim()) : list),
      z.array(Locale).min(1).max(3),
    ),
    voice: z.string().max(64).optional(),
    /** The portrait: a JPG, PNG or WEBP file on this machine, an absolute path. */
    photo: z.string().min(1).max(4096),
  }),
  z.strictObject({ command: z.literal('presenters list') }),
  z.strictObject({ command: z.literal('presenters retire'), presenterId: z.string().min(1).max(64) }),
]);
export type AdminCommand = z.infer<typeof AdminCommand>;
