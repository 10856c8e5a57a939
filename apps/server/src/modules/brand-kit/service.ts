// A user's brand kit (decision "Brand kit"): read with the default filled in, saved whole. The logo is one of the
// user's own completed images, which the library checked by content when it was stored (JPG, PNG or WEBP, bounded
// sides), so the renderer reads it as it is; SVG never reaches the library and is refused here with its own message.
import { type BrandKit, type BrandKitView, brandKitDefault, type Locale } from '@reelsmith/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { brandKits, files } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isUsersKey } from '../files/storage/keys.js';

/**
 * Checks the logo a resKey names: one of the user's completed files (else "Not found.", like another user's), and
 * an image. The row stays locked until the kit is written, so a deletion cannot slip in between.
 */
async function checkLogo(db: Queryable, userId: string, resKey: string) {
  if (!isUsersKey(userId, resKey)) throw new AppError('notFound');
  const [row] = await db
    .select({ type: files.type })
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.resKey, resKey), eq(files.status, 'completed')))
    .for('share');
  if (!row) throw new AppError('notFound');
  if (row.type !== 'image') throw new AppError('logoNotImage');
}

async function viewOf(ctx: AppContext, userId: string, kit: BrandKit, isDefault: boolean): Promise<BrandKitView> {
  const logo = kit.logoResKey
    ? await ctx.db
        .select({ name: files.name })
        .from(files)
        .where(and(eq(files.userId, userId), eq(files.resKey, kit.logoResKey)))
        .then(([row]) => row)
    : undefined;
  const logoResKey = logo ? kit.logoResKey : null;
  return {
    ...kit,
    logoResKey,
    logoUrl: logoResKey ? await ctx.storage.downloadUrl(logoResKey) : null,
    logoName: logo?.name ?? null,
    isDefault,
  };
}

/** The user's kit, or the default in the user's language when they have not saved one. */
export async function readBrandKit(ctx: AppContext, userId: string, locale: Locale): Promise<BrandKitView> {
  const [row] = await ctx.db.select().from(brandKits).where(eq(brandKits.userId, userId));
  if (!row) return viewOf(ctx, userId, brandKitDefault(locale), true);
  const { logoResKey, primaryColor, secondaryColor, fontId, callToAction } = row;
  return viewOf(ctx, userId, { logoResKey, primaryColor, secondaryColor, fontId, callToAction }, false);
}

/** Replaces the user's kit; a logo that is not theirs or not a picture changes nothing. */
export async function saveBrandKit(ctx: AppContext, userId: string, kit: BrandKit): Promise<BrandKitView> {
  const values = { ...kit, updatedAt: new Date() };
  await ctx.db.transaction(async (tx) => {
    if (kit.logoResKey !== null) await checkLogo(tx, userId, kit.logoResKey);
    await tx
      .insert(brandKits)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: brandKits.userId, set: values });
  });
  return viewOf(ctx, userId, kit, false);
}
