// Presenters (decision "Presenters"): the operator's catalogue, offered to everyone until retired, and each user's
// own, saved from their pictures once they state they may use the face and the picture shows one clear face
// looking at the camera (decision "Presenter portraits"). A user's own presenter is never offered to anyone else.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LOCALES, type Locale, OWN_PRESENTERS_MAX, type Presenter } from '@reelsmith/contract';
import { checkPortrait, imageInfo, type PortraitProblem, sniff, VOICES } from '@reelsmith/media';
import { and, asc, count, desc, eq, isNull, or } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { files, type PresenterRow, presenters } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { formatOf } from '../files/formats.js';
import type { Storage } from '../files/storage/storage.js';
import { withWorkDir } from '../files/workDir.js';
import { checkPicture, fetchPicture } from '../generation/pictures.js';
import { checkInputPicture } from '../image-edit/bounds.js';

/** Each reason a picture cannot be a presenter, as the message that says so (decision "Presenter portraits"). */
const PORTRAIT_ERRORS = {
  noFace: 'portraitNoFace',
  severalFaces: 'portraitSeveralFaces',
  faceTooSmall: 'portraitFaceTooSmall',
  notFacingCamera: 'portraitNotFacingCamera',
} as const satisfies Record<PortraitProblem, string>;

/** Refuses a picture that is not one clear face looking at the camera: a lip-sync model would fail on it, or worse. */
export async function checkPresenter(file: string): Promise<void> {
  const { problem } = await checkPortrait(file);
  if (problem) throw new AppError(PORTRAIT_ERRORS[problem]);
}

/** One of the caller's stored pictures looked at as a presenter; a link is left to the task that may fetch it. */
export async function checkStoredPortrait(ctx: AppContext, userId: string, picture: { resKey?: string | undefined }): Promise<void> {
  if (picture.resKey === undefined) return;
  const ref = { resKey: picture.resKey };
  await withWorkDir(ctx.settings, async (dir) => checkPresenter((await fetchPicture(ctx, userId, ref, dir, 'presenter')).path));
}

/** A voice that is not in the catalogue is refused before it is kept. */
function checkVoice(voiceId: string | undefined): void {
  if (voiceId !== undefined && !VOICES.some((voice) => voice.voiceId === voiceId)) {
    throw new AppError('validation', { detail: `voiceId: no voice ${voiceId}` });
  }
}

const viewOf = async (storage: Storage, row: PresenterRow): Promise<Presenter> => ({
  presenterId: row.id,
  name: row.name,
  gender: row.gender,
  languages: row.languages.filter((language): language is Locale => (LOCALES as readonly string[]).includes(language)),
  voiceId: row.voiceId,
  imageUrl: await storage.downloadUrl(row.resKey),
  source: row.userId ? 'own' : 'catalogue',
});

/**
 * A presenter may talk this much longer than the seconds charged for (a slow voice, many numbers) before the video is
 * refused and refunded: past it the vendor's bill would outgrow the price.
 */
export const TALK_OVERRUN = 1.5;

/** Whom the caller may use: their own presenters, and the catalogue's that are not retired. */
const offeredTo = (userId: string) => or(eq(presenters.userId, userId), and(isNull(presenters.userId), isNull(presenters.retiredAt)));

/** The presenters on offer to the caller: their own, newest first, then the catalogue's by name. */
export async function listPresenters(ctx: AppContext, userId: string): Promise<Presenter[]> {
  const rows = await ctx.db
    .select()
    .from(presenters)
    .where(offeredTo(userId))
    .orderBy(asc(presenters.userId), desc(presenters.createdAt), asc(presenters.name));
  const own = rows.filter((row) => row.userId);
  const catalogue = rows.filter((row) => !row.userId).sort((a, b) => a.name.localeCompare(b.name));
  return Promise.all([...own, ...catalogue].map((row) => viewOf(ctx.storage, row)));
}

/** A presenter the caller may use, or "Not found." (another user's looks the same as none). */
export async function presenterFor(ctx: AppContext, userId: string, presenterId: string): Promise<PresenterRow> {
  const [row] = await ctx.db
    .select()
    .from(presenters)
    .where(and(eq(presenters.id, presenterId), offeredTo(userId)));
  if (!row) throw new AppError('notFound');
  return row;
}

/** The presenter's portrait as a checked picture file in `dir`. */
export async function presenterPicture(
  ctx: AppContext,
  row: PresenterRow,
  dir: string,
): Promise<{ path: string; width: number; height: number }> {
  const path = join(dir, 'presenter');
  await pipeline(await ctx.storage.read(row.resKey), createWriteStream(path));
  const size = await imageInfo(path).catch((error: unknown) => {
    throw new AppError('inputNotImage', {}, { cause: error });
  });
  checkInputPicture(size);
  return { path, ...size };
}

export interface SavePresenter {
  resKey: string;
  name: string;
  gender: 'female' | 'male';
  languages?: Locale[] | undefined;
  voiceId?: string | undefined;
  consent: true;
}

/** Refuses one more presenter of the caller's own past OWN_PRESENTERS_MAX. */
export async function checkRoom(ctx: AppContext, userId: string): Promise<void> {
  const [kept] = await ctx.db.select({ n: count() }).from(presenters).where(eq(presenters.userId, userId));
  if ((kept?.n ?? 0) >= OWN_PRESENTERS_MAX) throw new AppError('presentersLimit', { max: OWN_PRESENTERS_MAX });
}

/** Saves one of the caller's pictures as their own presenter, after looking at it. */
export async function savePresenter(ctx: AppContext, userId: string, body: SavePresenter): Promise<Presenter> {
  await checkPicture(ctx, userId, { resKey: body.resKey });
  checkVoice(body.voiceId);
  await checkRoom(ctx, userId);
  await checkStoredPortrait(ctx, userId, body);
  return keepPresenter(ctx, userId, { ...body, languages: body.languages ?? [...LOCALES], voiceId: body.voiceId ?? null });
}

/**
 * Keeps the caller's stored picture `resKey` as their own presenter, consented to now: by the caller's statement, or
 * (a presenter made from one already consented to, decision "Product in hand") by that presenter's.
 */
export async function keepPresenter(
  ctx: AppContext,
  userId: string,
  presenter: Pick<PresenterRow, 'resKey' | 'name' | 'gender' | 'languages' | 'voiceId'>,
): Promise<Presenter> {
  const [file] = await ctx.db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.resKey, presenter.resKey)));
  if (!file) throw new AppError('notFound');
  const [row] = await ctx.db
    .insert(presenters)
    .values({ id: randomUUID(), userId, fileId: file.id, ...presenter, consentAt: new Date() })
    .returning();
  return viewOf(ctx.storage, row as PresenterRow);
}

/** The presenter as the caller is shown it, with a fresh link to its picture. */
export const presenterView = (ctx: AppContext, row: PresenterRow) => viewOf(ctx.storage, row);

/** Removes one of the caller's own presenters; the picture stays in their library. */
export async function removePresenter(ctx: AppContext, userId: string, presenterId: string): Promise<Record<string, never>> {
  const removed = await ctx.db
    .delete(presenters)
    .where(and(eq(presenters.id, presenterId), eq(presenters.userId, userId)))
    .returning({ id: presenters.id });
  if (removed.length === 0) throw new AppError('notFound');
  return {};
}

export interface CataloguePresenter {
  name: string;
  gender: 'female' | 'male';
  languages: Locale[];
  voiceId?: string | undefined;
  /** The portrait, a file on the operator's machine. */
  photo: string;
}

/** Adds a presenter to the catalogue (the admin CLI): its portrait looked at and stored under `presenters/`. */
export async function addCataloguePresenter(deps: { db: Db; storage: Storage }, presenter: CataloguePresenter): Promise<PresenterRow> {
  checkVoice(presenter.voiceId);
  const format = formatOf((await sniff(presenter.photo))?.ext ?? '');
  if (format?.type !== 'image') throw new AppError('inputNotImage');
  checkInputPicture(await imageInfo(presenter.photo));
  await checkPresenter(presenter.photo);
  const id = randomUUID();
  const resKey = `presenters/${id}.${format.ext}`;
  await deps.storage.put(resKey, await readFile(presenter.photo), { contentType: format.mime });
  const [row] = await deps.db
    .insert(presenters)
    .values({
      id,
      resKey,
      name: presenter.name,
      gender: presenter.gender,
      languages: presenter.languages,
      voiceId: presenter.voiceId ?? null,
    })
    .returning();
  return row as PresenterRow;
}

/** The catalogue, retired ones included, oldest first. */
export const listCatalogue = (db: Db) => db.select().from(presenters).where(isNull(presenters.userId)).orderBy(asc(presenters.createdAt));

/** Offers a catalogue presenter no more; videos made with it keep it. */
export async function retirePresenter(db: Db, presenterId: string): Promise<PresenterRow> {
  const [row] = await db
    .update(presenters)
    .set({ retiredAt: new Date() })
    .where(and(eq(presenters.id, presenterId), isNull(presenters.userId)))
    .returning();
  if (!row) throw new AppError('notFound');
  return row;
}
