// Bounded work (decision "Bounded work"): a valid input must not buy unbounded work. A 99:1
// extension of a 2000 px picture was charged, held 2.4 GB for 15 s, failed and was refunded. Every picture a tool
// reads and every result it makes is bounded before the charge, with a clear message, and nothing is charged or
// queued; the worst input each local tool accepts runs within a few hundred MB, measured in a child process.
import { ERRORS, type TaskKind, taskSubmitPath } from '@reelsmith/contract';
import { WORK_LIMITS } from '@reelsmith/media';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { tasks } from '../src/db/schema.js';
import { appOn, type Browser } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { activeMember, fixtureServer, upload } from './support/files.js';
import { availableOf } from './support/points.js';
import { measureWorstInputs, peakLines } from './support/workPeak.js';

/** A flat picture of any size: small as a file, as large as asked once decoded. */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#d8d2c4' } })
    .jpeg({ quality: 80 })
    .toBuffer();

for (const testDb of testDatabases()) {
  describe(`bounded work on ${testDb.name}`, () => {
    const fixture = fixtureServer();
    const t = appOn(testDb, () => ({ OUTBOUND_ALLOW_HOSTS: fixture.host }));

    async function uploaded(browser: Browser, bytes: Buffer) {
      const answer = await upload(t, browser, bytes, 'jpg', 'picture.jpg');
      expect(answer.body.code, answer.body.message).toBe(0);
      return (answer.body.data as { resKey: string }).resKey;
    }

    it('refuses a 99:1 extension, an oversized picture and an oversized result before charging, with a clear message', async () => {
      const { browser, userId } = await activeMember(t, 'bounded');
      // Past the bound by a little: 7000 × 6000 is 42 megapixels.
      const huge = await picture(7000, 6000);
      const normal = await uploaded(browser, await picture(2000, 2000));
      const oversized = await uploaded(browser, huge);
      const wide = await uploaded(browser, await picture(1921, 1000));
      fixture.routes.set('/huge.jpg', { type: 'image/jpeg', body: huge });
      const before = await availableOf(t.ctx.db, userId);
      const refused = async (kind: TaskKind, body: object, locale = 'en') =>
        (await browser.call('POST', taskSubmitPath(kind), { body, headers: { 'accept-language': locale } })).body;
      const tooLarge = (width: number, height: number) => ({
        code: ERRORS.pictureTooLarge.code,
        message: `This picture is too large (${width} × ${height} px): at most 40 megapixels.`,
      });

      // The attack as found: a ratio no product shot has.
      const ratio = await refused('expand-image', { resKey: normal, ratio: '99:1' });
      expect(ratio.code).toBe(ERRORS.validation.code);
      expect(ratio.message).toBe('Invalid request: ratio: the ratio must be between 1:4 and 4:1');
      expect((await refused('expand-image', { resKey: normal, ratio: '1:5' })).code).toBe(ERRORS.validation.code);
      // A free frame within 8192 px a side is still 67 megapixels.
      expect(await refused('expand-image', { resKey: normal, canvas: { width: 8192, height: 8192, left: 0, top: 0 } })).toEqual({
        code: ERRORS.resultTooLarge.code,
        message: 'The result would be too large (8192 × 8192 px): at most 8192 px a side and 40 megapixels. Choose a smaller size.',
        data: null,
      });
      expect(await refused('expand-image', { resKey: oversized, ratio: '16:9' })).toMatchObject(tooLarge(7000, 6000));
      expect(await refused('expand-image', { resKey: oversized, ratio: '16:9' }, 'zh')).toMatchObject({
        code: ERRORS.pictureTooLarge.code,
        message: '图片过大（7000 × 6000 像素）：最多 40 百万像素。',
      });
      expect(await refused('remove-background', { resKey: oversized })).toMatchObject(tooLarge(7000, 6000));
      expect(await refused('remove-background', { imageUrl: `${fixture.base}/huge.jpg` }, 'pt')).toMatchObject({
        code: ERRORS.pictureTooLarge.code,
        message: 'Esta imagem é grande demais (7000 × 6000 px): no máximo 40 megapixels.',
      });
      expect(await refused('product-background', { resKey: normal, backgroundResKey: oversized })).toMatchObject(tooLarge(7000, 6000));
      // Enlargement is bounded by the spec's longest side (its result by the same: 1920 × 4 px a side at most).
      expect(await refused('enlarge-image', { resKey: wide, scale: 4 })).toMatchObject({
        code: ERRORS.enhanceTooLarge.code,
        message: 'The image is too large to enhance: its longest side may be at most 1920 px.',
      });
      expect(await refused('image-to-video', { image: { resKey: oversized }, duration: 5 })).toMatchObject(tooLarge(7000, 6000));
      expect(await refused('text-to-image', { prompt: 'a bottle', ratio: '1:1', image: { resKey: oversized } })).toMatchObject(
        tooLarge(7000, 6000),
      );
      expect(
        await refused('virtual-try-on', { garmentType: 'top', model: { resKey: oversized }, top: { templateId: 'tee-green' } }),
      ).toMatchObject(tooLarge(7000, 6000));

      expect(await availableOf(t.ctx.db, userId)).toBe(before);
      expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId))).toEqual([]);
    });
  });
}

describe('bounded work: the worst accepted input of each local tool', () => {
  it('runs within a few hundred MB', { timeout: 300_000 }, async () => {
    const peaks = await measureWorstInputs();
    console.log(
      [
        `bounded work (input ≤ ${WORK_LIMITS.inputPixels / 1e6} MP, result ≤ ${WORK_LIMITS.outputSide} px a side and ${WORK_LIMITS.outputPixels / 1e6} MP):`,
        ...peakLines(peaks),
      ].join('\n'),
    );
    for (const peak of peaks) {
      // The task's own memory, over a warmed process (the cut-out model is loaded once, at start).
      expect(peak.taskMb, `${peak.tool}: MB the task added`).toBeLessThanOrEqual(400);
      expect(peak.peakMb, `${peak.tool}: the process's peak MB`).toBeLessThanOrEqual(700);
    }
  });
});
