// What the operator reads about purchases (`credits audit`, `billing events`): credits owed for refunded or lost
// purchases, and what each of Stripe's events did.
import { desc, eq, gt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { billingEvents, billingPurchases, users } from '../../db/schema.js';

/** Users who owe credits: a purchase refunded or lost in a dispute after they spent its credits. */
export function owedCredits(db: Queryable) {
  return db
    .select({ email: users.email, owed: sql<number>`sum(${billingPurchases.owed})::int`, purchases: sql<number>`count(*)::int` })
    .from(billingPurchases)
    .innerJoin(users, eq(users.id, billingPurchases.userId))
    .where(gt(billingPurchases.owed, 0))
    .groupBy(users.email)
    .orderBy(users.email);
}

/** The latest events Stripe sent, newest first, with what they did (or why acting on them failed). */
export function recentEvents(db: Queryable, userId?: string, limit = 50) {
  return db
    .select()
    .from(billingEvents)
    .where(userId ? eq(billingEvents.userId, userId) : undefined)
    .orderBy(desc(billingEvents.receivedAt))
    .limit(limit);
}
