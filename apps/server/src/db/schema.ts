import {
  BRAND_FONT_IDS,
  type EditorConfig,
  type Locale,
  OperationType,
  PRESENTER_LAYOUTS,
  type PresenterLayout,
  SkuCode,
  type TASKS,
  type TemplateId,
} from '@reelsmith/contract';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { z } from 'zod';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** The user a row belongs to; a user's rows go with the user. */
const userId = () =>
  text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Always stored lower-case, so one person cannot hold two accounts by changing letter case. */
    email: text('email').notNull().unique(),
    username: text('username').notNull(),
    avatarUrl: text('avatar_url'),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
      .notNull()
      .default('INACTIVE'),
    /**
     * The OpenID Connect identity that signs in as this user, issuer and subject together (docs/decisions,
     * "Identity: issuer and subject"); null for a user of dev sign-in. A subject without an issuer is a user from
     * before issuers were kept: the configured issuer adopts it at its next sign-in.
     */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    /** Whether the identity's issuer vouched for `email`; only then may another verified identity link to the user. */
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Set by the operator's INACTIVE: a block that activation cannot lift (docs/decisions, "An operator's block"). */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('users_status_check', sql`${t.status} in ('ACTIVE', 'INACTIVE')`),
    // A blocked user is never ACTIVE, whatever code path tries: activation cannot lift a block.
    check('users_blocked_inactive_check', sql`${t.blockedAt} is null or ${t.status} = 'INACTIVE'`),
    check('users_oidc_issuer_check', sql`${t.oidcIssuer} is null or ${t.oidcSubject} is not null`),
    uniqueIndex('users_oidc_identity_unique').on(t.oidcIssuer, t.oidcSubject),
    uniqueIndex('users_legacy_oidc_subject_unique').on(t.oidcSubject).where(sql`${t.oidcIssuer} is null`),
  ],
);

/** A signed-in browser. Only the SHA-256 of the cookie's token is kept, so a database leak yields no usable session. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: userId(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Invitation codes. Codes made by the operator have no owner; a user's personal referral code carries the
 * inviting user in `owner_user_id` (at most one per user) and has no use limit (`max_uses` null).
 */
export const inviteCodes = pgTable(
  'invite_codes',
  {
    code: text('code').primaryKey(),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('invite_codes_max_uses_check', sql`${t.maxUses} >= 1`),
    check('invite_codes_uses_check', sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
    uniqueIndex('invite_codes_owner_user_id_unique').on(t.ownerUserId),
  ],
);

export const inviteRedemptions = pgTable(
  'invite_redemptions',
  {
    id: text('id').primaryKey(),
    code: text('code')
      .notNull()
      .references(() => inviteCodes.code, { onDelete: 'cascade' }),
    userId: userId(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invite_redemptions_code_idx').on(t.code), index('invite_redemptions_user_id_idx').on(t.userId)],
);

/**
 * A link-to-video project. Its editing state is the draft: the web app's JSON, kept whole so that the
 * product, preview and export stages restore exactly as the user left them (spec "States and transitions" draft restore).
 */
export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    name: text('name').notNull(),
    /** The name is its product's and follows the product's renames, until the user names the project (decision "Projects named after the product"). */
    nameFollowsProduct: boolean('name_follows_product').notNull().default(false),
    productLink: text('product_link'),
    coverUrl: text('cover_url'),
    taskStatus: text('task_status', { enum: ['NOT_START', 'SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE'] }),
    deviceFingerprint: text('device_fingerprint'),
    draft: text('draft'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('projects_user_id_created_at_idx').on(t.userId, t.createdAt)],
);

// The contract's enums, as the non-empty tuples Drizzle's text enums take.
const OPERATION_TYPES = OperationType.options as [OperationType, ...OperationType[]];
const SKU_CODES = SkuCode.options as [SkuCode, ...SkuCode[]];

const operationType = () => text('operation_type', { enum: OPERATION_TYPES }).notNull();
/** A CHECK that a text column holds one of the contract's enum values (constants of ours, so inlined as literals). */
const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) =>
  check(name, sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`);
/** Ledger and lot ids are sequences, so "newest first" has a tie-break that follows the order of writing. */
const serialId = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/**
 * A user's credit balance, derived from the ledger and kept in step with it in the same transaction. Every
 * money transaction locks this row first (SELECT … FOR UPDATE), which serialises one user's grants, charges,
 * refunds and expirations and nothing else.
 */
export const pointsAccounts = pgTable(
  'points_accounts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    totalPoints: integer('total_points').notNull().default(0),
    availablePoints: integer('available_points').notNull().default(0),
    usedPoints: integer('used_points').notNull().default(0),
    expiredPoints: integer('expired_points').notNull().default(0),
  },
  (t) => [
    check('points_accounts_available_check', sql`${t.availablePoints} >= 0`),
    check('points_accounts_used_check', sql`${t.usedPoints} >= 0`),
    check('points_accounts_expired_check', sql`${t.expiredPoints} >= 0`),
    check('points_accounts_total_check', sql`${t.totalPoints} = ${t.availablePoints} + ${t.usedPoints} + ${t.expiredPoints}`),
  ],
);

/** Credits granted together: what is left of them, and when that expires (null: never). */
export const pointsLots = pgTable(
  'points_lots',
  {
    id: serialId(),
    userId: userId(),
    operationType: operationType(),
    amount: integer('amount').notNull(),
    remaining: integer('remaining').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('points_lots_operation_type_check', t.operationType, OPERATION_TYPES),
    check('points_lots_remaining_check', sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.amount}`),
    index('points_lots_spendable_idx').on(t.userId, t.expiresAt).where(sql`${t.remaining} > 0`),
    index('points_lots_expiring_idx').on(t.expiresAt).where(sql`${t.remaining} > 0 and ${t.expiresAt} is not null`),
  ],
);

/**
 * The ledger: one append-only row per change of a user's credits, which is one record of the credit history.
 * The rows of a user add up to their available points. `idempotency_key` makes a retried grant or charge a
 * replay; at most one REFUND_TASK row exists per task.
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: serialId(),
    userId: userId(),
    referenceId: text('reference_id').notNull(),
    operationType: operationType(),
    pointsChange: integer('points_change').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    taskId: text('task_id'),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('points_ledger_operation_type_check', t.operationType, OPERATION_TYPES),
    check('points_ledger_points_change_check', sql`${t.pointsChange} <> 0`),
    uniqueIndex('points_ledger_user_id_idempotency_key_unique').on(t.userId, t.idempotencyKey),
    uniqueIndex('points_ledger_refund_task_unique').on(t.taskId).where(sql`${t.operationType} = 'REFUND_TASK'`),
    index('points_ledger_task_id_idx').on(t.taskId),
    index('points_ledger_user_id_created_at_idx').on(t.userId, t.createdAt, t.id),
  ],
);

/**
 * Which lots a ledger row drew from or added to, and how much each: a charge spanning three lots is one ledger
 * row with three of these, and its refund puts back exactly these amounts.
 */
export const pointsLedgerLots = pgTable(
  'points_ledger_lots',
  {
    ledgerId: bigint('ledger_id', { mode: 'number' })
      .notNull()
      .references(() => pointsLedger.id, { onDelete: 'cascade' }),
    lotId: bigint('lot_id', { mode: 'number' })
      .notNull()
      .references(() => pointsLots.id, { onDelete: 'cascade' }),
    pointsChange: integer('points_change').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ledgerId, t.lotId] }), index('points_ledger_lots_lot_id_idx').on(t.lotId)],
);

/** The price of one output of each SKU, in credits; the migration seeds a default for every SKU code. */
export const prices = pgTable(
  'prices',
  {
    skuCode: text('sku_code', { enum: SKU_CODES }).primaryKey(),
    price: integer('price').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [oneOf('prices_sku_code_check', t.skuCode, SKU_CODES), check('prices_price_check', sql`${t.price} >= 0`)],
);

/** A friend who activated with a user's personal code, and what the inviter earned for it (0 beyond the monthly cap). */
export const referrals = pgTable(
  'referrals',
  {
    id: text('id').primaryKey(),
    inviterUserId: text('inviter_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    inviteeUserId: text('invitee_user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    rewardPoints: integer('reward_points').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('referrals_reward_points_check', sql`${t.rewardPoints} >= 0`),
    check('referrals_not_self_check', sql`${t.inviterUserId} <> ${t.inviteeUserId}`),
    index('referrals_inviter_user_id_created_at_idx').on(t.inviterUserId, t.createdAt),
  ],
);

/**
 * A stored file of a user: an asset of the library (spec "Entities" library asset). `res_key` is where the bytes live in
 * storage (null while a URL import is still fetching). `source` tells how it came: uploaded from the computer
 * (local), imported from a web address (url), or made by a generation (generated). `status` is the library's:
 * draft while an import runs, completed when stored and checked, failed when the import failed (`error` says why).
 */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    projectId: text('project_id').references(() => projects.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    resKey: text('res_key').unique(),
    type: text('type', { enum: ['image', 'video'] }),
    format: text('format'),
    mime: text('mime'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    width: integer('width'),
    height: integer('height'),
    duration: doublePrecision('duration'),
    thumbKey: text('thumb_key'),
    source: text('source', { enum: ['url', 'local', 'generated'] }).notNull(),
    sourceUrl: text('source_url'),
    status: text('status', { enum: ['draft', 'completed', 'failed'] }).notNull(),
    error: text('error'),
    /** SHA-256 of an upload's bytes: the same file uploaded again is the same asset (decision "One asset per uploaded file"). */
    contentHash: text('content_hash'),
    /** Made by the sandbox's free stand-in, not a real model: labelled so wherever it is shown (decision "Stand-ins are free"). */
    standIn: boolean('stand_in').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('files_type_check', sql`${t.type} is null or ${t.type} in ('image', 'video')`),
    check('files_source_check', sql`${t.source} in ('url', 'local', 'generated')`),
    check('files_status_check', sql`${t.status} in ('draft', 'completed', 'failed')`),
    check('files_completed_check', sql`${t.status} <> 'completed' or (${t.resKey} is not null and ${t.type} is not null)`),
    index('files_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('files_project_id_idx').on(t.projectId),
    index('files_user_id_content_hash_idx').on(t.userId, t.contentHash),
  ],
);

/**
 * Every object stored under a user's prefix and its size: what the storage quota counts (docs/decisions, "Storage
 * quota"). A row is written, in the transaction that checks the quota, before the bytes are stored, and removed once
 * the object is deleted. `kind` is what the sweep cleans: put-url uploads never registered, captured pages once
 * analysed. `pending`: a put-url upload whose size is the one reserved for it, not yet measured.
 */
export const storedObjects = pgTable(
  'stored_objects',
  {
    key: text('key').primaryKey(),
    userId: userId(),
    /** A stored object's, or `record`: a row of the database a user's data fills (a draft), counted all the same. */
    kind: text('kind', { enum: ['file', 'upload', 'page', 'record'] }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    pending: boolean('pending').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('stored_objects_kind_check', sql`${t.kind} in ('file', 'upload', 'page', 'record')`),
    check('stored_objects_size_check', sql`${t.size} >= 0`),
    // The migration adds INCLUDE (size): a user's sum is read from the index alone.
    index('stored_objects_user_id_idx').on(t.userId),
    index('stored_objects_kind_created_at_idx').on(t.kind, t.createdAt),
  ],
);

/**
 * The task queue (design "Tasks"): a row per submitted task. Submitting inserts SUBMITTED in the transaction that
 * charges for it; a worker claims it (FOR UPDATE SKIP LOCKED), holds a lease it renews while it works
 * (`lease_until`), and ends it SUCCESS with `result` or FAILURE with `error` and a refund. A lease that lapses
 * means the worker died: the task is claimed again, at most `max_attempts` times in all.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    kind: text('kind').notNull(),
    projectId: text('project_id'),
    input: jsonb('input').notNull(),
    status: text('status', { enum: ['SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE'] }).notNull(),
    progress: text('progress'),
    result: jsonb('result'),
    /** `{key, params}` of the error table (localised when read) or `{message}`. */
    error: jsonb('error'),
    /** A client's Idempotency-Key: the same key submits once. */
    idempotencyKey: text('idempotency_key'),
    /**
     * The batch row this task advances (decision "Batch"); null for a task a user submitted themselves. Workers
     * claim such tasks after interactive ones and keep a slot free of them.
     */
    batchRowId: text('batch_row_id'),
    /**
     * What makes this task take longer than another of its kind, as its kind labels it at submission (`15s×3`:
     * three previews of 15 s); null when the kind has no such label. Its time is estimated from tasks of the same
     * kind and label (decision "Progress estimates").
     */
    workload: text('workload'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    cancelRequested: timestamp('cancel_requested', { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('tasks_status_check', sql`${t.status} in ('SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE')`),
    check('tasks_attempts_check', sql`${t.attempts} >= 0 and ${t.maxAttempts} >= 1`),
    uniqueIndex('tasks_user_id_idempotency_key_unique').on(t.userId, t.idempotencyKey),
    index('tasks_user_id_created_at_idx').on(t.userId, t.createdAt),
    // A tool's generation history: one user's tasks of one kind, newest first.
    index('tasks_user_id_kind_created_at_idx').on(t.userId, t.kind, t.createdAt),
    // When a user was last served, read by every claim (decision "Fair share of the workers").
    index('tasks_user_id_started_at_idx').on(t.userId, t.startedAt),
    index('tasks_claimable_idx').on(t.createdAt).where(sql`${t.status} in ('SUBMITTED', 'IN_PROGRESS')`),
    // The recent successes of a kind and workload, newest first, that a progress estimate is the median of
    // (decision "Progress estimates"). No workload is '' here: `workload is null` is not an equality, and the
    // planner would read every success of the kind and sort them instead of walking the index from its end.
    index('tasks_finished_by_workload_idx')
      .on(t.kind, sql`coalesce(${t.workload}, '')`, t.finishedAt)
      .where(sql`${t.status} = 'SUCCESS' and ${t.batchRowId} is null`),
  ],
);

/**
 * A user's brand kit (decision "Brand kit"): at most one, replaced whole on save; a user without one gets the
 * contract's default. The logo is one of the user's stored images: deleting that file from the library clears it.
 */
export const brandKits = pgTable(
  'brand_kits',
  {
    userId: userId().primaryKey(),
    logoResKey: text('logo_res_key').references(() => files.resKey, { onDelete: 'set null' }),
    primaryColor: text('primary_color').notNull(),
    secondaryColor: text('secondary_color').notNull(),
    fontId: text('font_id', { enum: BRAND_FONT_IDS }).notNull(),
    callToAction: text('call_to_action').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('brand_kits_colors_check', sql`${t.primaryColor} ~ '^#[0-9a-f]{6}$' and ${t.secondaryColor} ~ '^#[0-9a-f]{6}$'`),
    oneOf('brand_kits_font_id_check', t.fontId, BRAND_FONT_IDS),
    index('brand_kits_logo_res_key_idx').on(t.logoResKey),
  ],
);

/**
 * A presenter of the Avatar tool (decision "Presenters"): a portrait with a name, a gender, the languages it speaks
 * and a default voice. The operator's catalogue has no user and its own stored portrait (`res_key`, under
 * `presenters/`); a user's own presenter is one of their pictures (`file_id`, gone with it), saved once they stated
 * they may use the face. A retired catalogue presenter is kept for the videos made with it, and offered no more.
 */
export const presenters = pgTable(
  'presenters',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    fileId: text('file_id').references(() => files.id, { onDelete: 'cascade' }),
    resKey: text('res_key').notNull(),
    name: text('name').notNull(),
    gender: text('gender', { enum: ['female', 'male'] }).notNull(),
    languages: text('languages').array().notNull(),
    voiceId: text('voice_id'),
    consentAt: timestamp('consent_at', { withTimezone: true }),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('presenters_gender_check', t.gender, ['female', 'male']),
    // The catalogue's have neither a user nor a file; a user's own has both, and the consent they gave.
    check(
      'presenters_owner_check',
      sql`(${t.userId} is null and ${t.fileId} is null) or (${t.userId} is not null and ${t.fileId} is not null and ${t.consentAt} is not null)`,
    ),
    index('presenters_user_id_idx').on(t.userId),
  ],
);

/**
 * A user's API key (decision "API keys"): the key is shown once; only its SHA-256 is kept. `prefix` is the key's
 * first characters, shown in lists and logs to tell keys apart. A revoked key keeps its row so lists and logs
 * can still name it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_id_created_at_idx').on(t.userId, t.createdAt)],
);

/**
 * A key's calls in its current window of a minute (decision "API keys"), shared by every API process on the database:
 * one row per key, started afresh by the first call after its window ended, so old windows never pile up.
 */
export const apiKeyWindows = pgTable('api_key_windows', {
  keyId: text('key_id')
    .primaryKey()
    .references(() => apiKeys.id, { onDelete: 'cascade' }),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  used: integer('used').notNull(),
});

/**
 * Where a user's events are sent (decision "Webhooks"): an https (or allowed) URL, the events it wants, and the
 * secret its deliveries are signed with.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    createdAt: createdAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Who turned it off: its owner, or the dispatcher after a day of failed attempts (decision "Fair webhook delivery"). */
    disabledReason: text('disabled_reason', { enum: ['owner', 'failing'] }),
    /** The first of the failed attempts in a row, null once an attempt succeeds. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    failedAttempts: integer('failed_attempts').notNull().default(0),
  },
  (t) => [
    index('webhook_endpoints_user_id_idx').on(t.userId),
    check('webhook_endpoints_disabled_reason_check', sql`${t.disabledReason} in ('owner', 'failing')`),
  ],
);

/**
 * One event to one endpoint, claimed by workers like a task (a lease), retried with backoff until it is
 * delivered or its day is over; each attempt's outcome is kept for the delivery log.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    userId: userId(),
    /** The event's id, the same in every attempt and resend, so receivers can deduplicate. */
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['PENDING', 'DELIVERED', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The delivery this one sends again (a resend), counted against the endpoint's resends a minute. */
    resendOf: text('resend_of'),
  },
  (t) => [
    check('webhook_deliveries_status_check', sql`${t.status} in ('PENDING', 'DELIVERED', 'FAILED')`),
    index('webhook_deliveries_endpoint_id_created_at_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * A batch of product links (decision "Batch"): its options, and whether it runs; its rows advance through the
 * ordinary tasks. `finished_at` is written once, with the `batch.finished` event, when no row is left to advance.
 */
export const batches = pgTable(
  'batches',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    /** The contract's BatchOptions. */
    options: jsonb('options').notNull(),
    status: text('status', { enum: ['running', 'finished', 'cancelled'] })
      .notNull()
      .default('running'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('batches_status_check', sql`${t.status} in ('running', 'finished', 'cancelled')`),
    index('batches_user_id_created_at_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * One product link of a batch. The batch driver claims a row with a lease (`lease_owner`, `lease_until`) to move
 * it one step: submit its next task, or read the outcome of the one it waits for (`task_id`). `attempt` counts
 * retries, so each attempt's tasks have their own idempotency keys.
 */
export const batchRows = pgTable(
  'batch_rows',
  {
    id: text('id').primaryKey(),
    batchId: text('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    userId: userId(),
    /** From 1, in the order given. */
    position: integer('position').notNull(),
    link: text('link').notNull(),
    /** The contract's BatchRowInput less the link: the row's own choices. */
    overrides: jsonb('overrides').notNull(),
    status: text('status', { enum: ['waiting', 'analysing', 'rendering', 'exporting', 'done', 'failed', 'cancelled'] })
      .notNull()
      .default('waiting'),
    attempt: integer('attempt').notNull().default(1),
    projectId: text('project_id'),
    taskId: text('task_id'),
    previewTaskId: text('preview_task_id'),
    exportTaskId: text('export_task_id'),
    /** `{key, params}` of the error table (localised when read) or `{message}`, as tasks store theirs. */
    error: jsonb('error'),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('batch_rows_status_check', sql`${t.status} in ('waiting', 'analysing', 'rendering', 'exporting', 'done', 'failed', 'cancelled')`),
    uniqueIndex('batch_rows_batch_id_position_unique').on(t.batchId, t.position),
    // The driver's work: the rows not yet done, oldest batch first; and a user's rows in flight (the fairness limit).
    index('batch_rows_open_idx').on(t.createdAt).where(sql`${t.status} in ('waiting', 'analysing', 'rendering', 'exporting')`),
    index('batch_rows_user_id_status_idx').on(t.userId, t.status),
  ],
);

/** A segment of a preview's script, as it was last rendered. */
export type PreviewSegment = { segId: number; segText: string };
/** The product as the link-video task was given it: what the cards and the file's name show. */
export type PreviewProduct = Pick<
  z.output<(typeof TASKS)['link-video']['input']>,
  'productName' | 'productDescription' | 'productBrand' | 'productOffer' | 'productFacts'
>;

/**
 * A preview of link to video (decision "Previews as rows"): what it was last rendered from and the file it is. Written
 * by the link-video task that made it and rewritten by each script update, in the transaction that records that
 * task's success; script updates and exports read it instead of replaying the chain of task inputs. The voice,
 * music, caption style and language are the choices (null: the default for the language spoken), as the editor
 * made them, so an edit that changes the script's language changes a default voice as it always did.
 */
export const previews = pgTable(
  'previews',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The link-video task that made it. */
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    scriptId: text('script_id').notNull(),
    /** Its place among its task's previews, from 0: the picture that opens it and the number its export is named by. */
    variant: integer('variant').notNull(),
    segments: jsonb('segments').$type<PreviewSegment[]>().notNull(),
    templateId: text('template_id').$type<TemplateId>().notNull(),
    voiceId: text('voice_id'),
    musicId: text('music_id'),
    captionId: text('caption_id'),
    aspectRatio: text('aspect_ratio').$type<EditorConfig['aspectRatio']>().notNull(),
    videoLength: integer('video_length').$type<EditorConfig['videoLength']>().notNull(),
    language: text('language').$type<Locale>(),
    product: jsonb('product').$type<PreviewProduct>().notNull(),
    /** The pictures and clips, in the order the user put them. */
    fileIds: jsonb('file_ids').$type<string[]>().notNull(),
    /**
     * The presenter on camera, if any (decision "Presenter in link to video"), and the whole seconds they are on
     * screen in the preview as rendered: what the export's lip-synced clips cost.
     */
    presenterId: text('presenter_id').references(() => presenters.id, { onDelete: 'set null' }),
    presenterSeconds: integer('presenter_seconds'),
    /** Where the presenter stands, when the user chose (decision "Presenter layouts"); null, where the template puts them. */
    presenterLayout: text('presenter_layout').$type<PresenterLayout>(),
    /** The rendered video: its stored object, and its library file while the user keeps it. */
    resKey: text('res_key').notNull(),
    fileId: text('file_id').references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('previews_task_id_script_id_unique').on(t.taskId, t.scriptId),
    index('previews_project_id_idx').on(t.projectId),
    oneOf('previews_presenter_layout_check', t.presenterLayout, PRESENTER_LAYOUTS),
  ],
);

/**
 * Every finished task that rendered a preview: its link-video task, then each script update. A script update or an
 * export names the project's current task, which may be any of them (decision "Script update chain"); this is how it
 * finds the previews, without following the tasks' inputs.
 */
export const previewRenders = pgTable(
  'preview_renders',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    previewId: text('preview_id')
      .notNull()
      .references(() => previews.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.previewId] }), index('preview_renders_preview_id_idx').on(t.previewId)],
);

/**
 * What is on sale (decision "Buying credits"): top-up packs and monthly plans, each one Stripe price, set with the
 * admin CLI. A retired offer is no longer sold; purchases that named it keep its row.
 */
export const billingOffers = pgTable(
  'billing_offers',
  {
    code: text('code').primaryKey(),
    kind: text('kind', { enum: ['pack', 'plan'] }).notNull(),
    /** A pack's credits, or a plan's credits for each paid month. */
    credits: integer('credits').notNull(),
    stripePriceId: text('stripe_price_id').notNull(),
    /** How long a pack's credits last; null: they never expire. A plan's last its paid month. */
    expiresDays: integer('expires_days'),
    createdAt: createdAt(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    check('billing_offers_kind_check', sql`${t.kind} in ('pack', 'plan')`),
    check('billing_offers_credits_check', sql`${t.credits} > 0`),
    uniqueIndex('billing_offers_stripe_price_id_unique').on(t.stripePriceId),
  ],
);

/** The Stripe customer of a user: made at their first checkout, named in every later one and in the billing portal. */
export const billingCustomers = pgTable('billing_customers', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  createdAt: createdAt(),
});

/** A Checkout Session this server opened: whose it is and what it sells, for the page after paying and for the grant. */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    offerCode: text('offer_code').notNull(),
    kind: text('kind', { enum: ['pack', 'plan'] }).notNull(),
    credits: integer('credits').notNull(),
    createdAt: createdAt(),
    /** When Stripe said a delayed payment (Boleto, Pix, a bank debit) failed: nothing will be granted. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (t) => [index('billing_checkouts_user_id_idx').on(t.userId), check('billing_checkouts_kind_check', sql`${t.kind} in ('pack', 'plan')`)],
);

/**
 * Every event Stripe sent, stored by its id before anything acts on it; `processed_at` is written in the
 * transaction that acts, so a delivery acts once however often Stripe sends it (decision "Buying credits").
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** What acting on it did, in words for the operator (`billing events`). */
    outcome: text('outcome'),
    userId: text('user_id'),
    /** Failed attempts to act on it, and the last failure: Stripe sends it again until one succeeds. */
    failures: integer('failures').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [index('billing_events_received_at_idx').on(t.receivedAt)],
);

/**
 * One paid purchase: a top-up pack's checkout or one paid month of a plan. Its credits are one lot of the ledger
 * (`lot_id`); a refund or a lost dispute takes back what of that lot is unspent and records the rest as owed.
 */
export const billingPurchases = pgTable(
  'billing_purchases',
  {
    /** `checkout:<session>` or `invoice:<invoice>`: also the grant's idempotency key. */
    id: text('id').primaryKey(),
    userId: userId(),
    kind: text('kind', { enum: ['pack', 'plan'] }).notNull(),
    offerCode: text('offer_code').notNull(),
    credits: integer('credits').notNull(),
    /** What was paid, in the currency's smallest unit. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    paymentIntentId: text('payment_intent_id'),
    lotId: bigint('lot_id', { mode: 'number' }).notNull(),
    /** The part of the amount refunded or lost in a dispute so far, and the credits that took back and left owed. */
    reversedAmount: integer('reversed_amount').notNull().default(0),
    takenBack: integer('taken_back').notNull().default(0),
    owed: integer('owed').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('billing_purchases_payment_intent_id_unique').on(t.paymentIntentId),
    index('billing_purchases_user_id_idx').on(t.userId),
    check('billing_purchases_kind_check', sql`${t.kind} in ('pack', 'plan')`),
    check(
      'billing_purchases_reversal_check',
      sql`${t.reversedAmount} between 0 and ${t.amount} and ${t.takenBack} + ${t.owed} <= ${t.credits}`,
    ),
  ],
);

/** A user's plan as Stripe last said it: read again from Stripe on each of its events, so their order does not matter. */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    offerCode: text('offer_code'),
    status: text('status').notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    endsAtPeriodEnd: boolean('ends_at_period_end').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_subscriptions_user_id_idx').on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type PointsLotRow = typeof pointsLots.$inferSelect;
export type PointsLedgerRow = typeof pointsLedger.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type StoredObjectRow = typeof storedObjects.$inferSelect;
export type TaskRow = typeof tasks.$inferSelect;
export type PreviewRow = typeof previews.$inferSelect;
export type BrandKitRow = typeof brandKits.$inferSelect;
export type PresenterRow = typeof presenters.$inferSelect;
export type NewTaskRow = typeof tasks.$inferInsert;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type BatchDbRow = typeof batches.$inferSelect;
export type BatchRowRow = typeof batchRows.$inferSelect;
export type BillingOfferRow = typeof billingOffers.$inferSelect;
export type BillingPurchaseRow = typeof billingPurchases.$inferSelect;
