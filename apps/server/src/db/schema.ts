import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    googleSub: text('google_sub').unique(),
    createdAt: createdAt(),
  },
  (t) => [check('users_status_check', sql`${t.status} in ('ACTIVE', 'INACTIVE')`)],
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
 * Invitation codes. Codes made by the operator have no owner; the credits issue adds personal referral codes,
 * which carry the inviting user in `owner_user_id`.
 */
export const inviteCodes = pgTable(
  'invite_codes',
  {
    code: text('code').primaryKey(),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    maxUses: integer('max_uses').notNull(),
    uses: integer('uses').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('invite_codes_max_uses_check', sql`${t.maxUses} >= 1`),
    check('invite_codes_uses_check', sql`${t.uses} >= 0 and ${t.uses} <= ${t.maxUses}`),
    index('invite_codes_owner_user_id_idx').on(t.ownerUserId),
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
 * product, preview and export stages restore exactly as the user left them (spec §4 draft restore).
 */
export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    userId: userId(),
    name: text('name').notNull(),
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

export type UserRow = typeof users.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
