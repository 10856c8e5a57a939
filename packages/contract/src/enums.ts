import { z } from 'zod';
import { LOCALES } from './constants.js';

// Every enumeration the spec names, once, for web and server alike.

export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;

export const UserStatus = z.enum(['ACTIVE', 'INACTIVE']);
export type UserStatus = z.infer<typeof UserStatus>;

export const TaskStatus = z.enum(['NOT_START', 'SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE']);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** The `<kind>` of `/task/v1/<kind>/submit|query` (design "Contract details"); the first four are the spec's taskPath values. */
export const TaskKind = z.enum([
  'link-analysis',
  'link-video',
  'script-update',
  'export-video',
  'remove-background',
  'product-background',
  'expand-image',
  'enlarge-image',
  'text-to-video',
  'image-to-video',
  'text-to-image',
  'virtual-try-on',
  'avatar-video',
  'product-holding',
]);
export type TaskKind = z.infer<typeof TaskKind>;

/** The generation tools of spec "Screens and routes" screen 4, each with its own history (the image tool does text and image to image). */
export const GenerationTool = z.enum([
  'text-to-video',
  'image-to-video',
  'text-to-image',
  'virtual-try-on',
  'remove-background',
  'product-background',
  'expand-image',
  'enlarge-image',
  'avatar-video',
]);
export type GenerationTool = z.infer<typeof GenerationTool>;

/** The six generation progress stages of spec "States and transitions", in order. */
export const ProgressStage = z.enum(['parsing', 'understanding', 'initialFrames', 'animating', 'rendering', 'polishing']);
export type ProgressStage = z.infer<typeof ProgressStage>;

export const OperationType = z.enum([
  'RECHARGE',
  'SIGNUP',
  'REFERRAL_REWARD',
  'SUBSCRIPTION_PLAN',
  'PROMOTION',
  'ADJUSTMENT',
  'REFUND',
  'REFUND_TASK',
  'DEDUCTION',
  'LINK_TO_VIDEO',
  'TEMPLATE_TO_VIDEO',
  'TEXT_TO_VIDEO',
  'IMAGE_TO_VIDEO',
  'TEXT_TO_IMAGE',
  'VIRTUAL_TRY_ON',
  'AI_BACKGROUND',
  'EXTEND_IMAGE',
  'UPSCALE_IMAGE',
  'AVATAR_VIDEO',
  'PRODUCT_HOLDING',
  'EXPIRATION',
]);
export type OperationType = z.infer<typeof OperationType>;

/** What a grant can be: every way of earning credits (the operation types that add to a balance). */
export const GrantType = OperationType.extract([
  'RECHARGE',
  'SIGNUP',
  'REFERRAL_REWARD',
  'SUBSCRIPTION_PLAN',
  'PROMOTION',
  'ADJUSTMENT',
  'REFUND',
]);
export type GrantType = z.infer<typeof GrantType>;

/** The two tabs of the credit history: 'used' and 'gained'. */
export const HistoryTab = z.enum(['used', 'gained']);
export type HistoryTab = z.infer<typeof HistoryTab>;

export const SkuCode = z.enum([
  'imageGen',
  'imageGenV2',
  'imageTryOn',
  'imageBg',
  'extendImg',
  'imageEnhance',
  'link2V_15s',
  'link2V_30s',
  'link2V_45s',
  'videoTemplate_basic',
  'videoTemplate_pro',
  't2Video_std_5s',
  't2Video_std_10s',
  't2Video_pro_5s',
  't2Video_pro_10s',
  'img2Video_std_5s',
  'img2Video_std_10s',
  'img2Video_pro_5s',
  'img2Video_pro_10s',
  // Image to video by the local engine (a camera move over the still), when no vendor model is configured:
  // priced on its own, lower (decision "Image-to-video price").
  'img2VideoLocal_std_5s',
  'img2VideoLocal_std_10s',
  'img2VideoLocal_pro_5s',
  'img2VideoLocal_pro_10s',
  // A second of talking presenter (the Avatar tool): a video's price is this × its seconds (decision "The Avatar tool").
  'avatarVideo',
  // A still of a presenter holding the product (decision "Product in hand").
  'productHolding',
]);
export type SkuCode = z.infer<typeof SkuCode>;

/** Asset URL task status as the server reports it (spec "States and transitions"): -1 failure, 4 success, anything else submitted. */
export const ASSET_URL_TASK_FAILURE = -1;
export const ASSET_URL_TASK_SUCCESS = 4;

export const AssetType = z.enum(['image', 'video']);
/**
 * Where a library entry came from: the spec's two sources (from a link, from the computer), or made by a tool.
 * All three can be filtered by: a source shown on a card and missing from the filter is one a user cannot find.
 */
export const AssetOrigin = z.enum(['url', 'local', 'generated']);
export const AssetStatus = z.enum(['draft', 'completed', 'failed']);
export const SortOrder = z.enum(['newest', 'oldest']);

/** The twelve preset product categories of spec "Entities". */
export const ProductCategory = z.enum([
  'lipstick',
  'earphone',
  'shampoo',
  'perfume',
  'backpack',
  'chineseLiquor',
  'eyeshadowPalette',
  'waterCup',
  'sofa',
  'speaker',
  'sneakers',
  'glasses',
]);
