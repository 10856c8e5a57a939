import { z } from 'zod';
import { defineCall, SHELL_ROUTES } from './call.js';
import { Page, Timestamp } from './common.js';
import { HistoryTab, OperationType, SkuCode } from './enums.js';

/** Available credits that will expire, granted together (the sign-up grant, a referral reward), and when. */
export const ExpiringCredits = z.object({
  operationType: OperationType,
  points: z.number().int(),
  expiresAt: Timestamp,
});
export type ExpiringCredits = z.infer<typeof ExpiringCredits>;

export const PointsAccount = z.object({
  totalPoints: z.number().int(),
  availablePoints: z.number().int(),
  usedPoints: z.number().int(),
  expiredPoints: z.number().int(),
  /** What of the balance expires, soonest first (at most EXPIRING_SHOWN grants); credits that never expire are not listed. */
  expiring: z.array(ExpiringCredits),
});
export type PointsAccount = z.infer<typeof PointsAccount>;
export const EXPIRING_SHOWN = 5;

export const PointsRecord = z.object({
  referenceId: z.string(),
  operationType: OperationType,
  pointsChange: z.number().int(),
  createTime: Timestamp,
});
export type PointsRecord = z.infer<typeof PointsRecord>;

/** The kinds of AI work a SKU may pay for; `madeBy` names one where a SKU covers two (a picture drawn, or edited). */
export const GenerationCapability = z.enum([
  'textToImage',
  'imageToImage',
  'textToVideo',
  'imageToVideo',
  'virtualTryOn',
  'removeBackground',
  'replaceBackground',
  'extendImage',
  'upscale',
  'talkingAvatar',
  'productHolding',
]);
export type GenerationCapability = z.infer<typeof GenerationCapability>;

/**
 * What one output of a SKU costs the caller. The SKU is checked by the service, not the schema, so an unknown code
 * gets its own clear message. `standIn`: this server has no AI service for the work, so the sandbox's marked
 * stand-in does it, free (decision "Stand-ins are free"); `madeBy` says which work is meant where a SKU covers two.
 */
export const pointsSkuPrice = defineCall({
  method: 'GET',
  path: '/points/skuPrice',
  access: 'signedIn',
  query: z.strictObject({ skuCode: z.string().min(1).max(64), madeBy: GenerationCapability.optional() }),
  data: z.object({ skuCode: SkuCode, price: z.number().int().min(0), standIn: z.boolean() }),
});

export const pointsAccount = defineCall({ ...SHELL_ROUTES.pointsAccount, data: PointsAccount });

/** The credit refresh call the web app makes after a charge (its path is ours: spec "The calls" does not show it). */
export const pointsRefresh = defineCall({ ...SHELL_ROUTES.pointsRefresh, data: PointsAccount });

export const pointsList = defineCall({
  method: 'POST',
  path: '/points/list',
  access: 'active',
  body: Page.extend({ operationType: HistoryTab }),
  data: z.array(PointsRecord),
});

export const Invitee = z.object({
  name: z.string(),
  joinedAt: Timestamp,
  rewardPoints: z.number().int(),
  capped: z.boolean(),
});

/** The invite-friends page: the personal code and link, and who joined through it. */
export const referralInfo = defineCall({
  method: 'GET',
  path: '/referral/info',
  access: 'active',
  data: z.object({
    inviteCode: z.string(),
    inviteLink: z.string(),
    monthlyRewarded: z.number().int(),
    monthlyCap: z.number().int(),
    invitees: z.array(Invitee),
  }),
});
