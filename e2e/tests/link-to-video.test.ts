// Link to video in real Chromium against `npm start`, with a shop on loopback: paste the link, correct the
// product, generate previews, edit a script and re-render it, export, download. Each stage is reloaded while
// it is under way: the draft brings back the same page with the same data, and the task in hand goes on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnPortrait } from '../../packages/media/test/fixtures.js';
import { bodyText, openOverlay, pathOf, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { frameAt, readText } from '../support/ocr.js';
import { openShop, type Shop } from '../support/shop.js';
import { activeUser } from '../support/users.js';

const PRODUCT = {
  name: 'Aurora Insulated Water Bottle 750 ml',
  description: 'Double-wall vacuum insulation keeps drinks cold for 24 hours and hot for 12. Leak-proof lid, fits cup holders.',
  colours: [
    [230, 90, 60],
    [60, 140, 220],
    [80, 190, 120],
    [240, 200, 70],
  ] as [number, number, number][],
  pageDelayMs: 4000,
};
const RENAMED = `${PRODUCT.name} (Ocean blue)`;
const SCRIPT = ['Meet Aurora, the bottle that keeps up with you.', 'Ice cold for a whole day.', 'Get yours today.'];
/** Renders on this 2-core machine take tens of seconds each; three previews are made at once. */
const RENDER_MS = 240_000;

interface DraftVideo {
  scriptId: string;
  taskId: string;
  videoUrl: string;
}
interface Draft {
  projectId: string;
  taskId: string | null;
  taskPath: string | null;
  taskStatus: string | null;
  product: { productName: string; productImages: unknown[] } | null;
  preview: { previewVideos: DraftVideo[]; scriptContentList: { scriptId: string; segments: { segText: string }[] }[] } | null;
  exports: { exportVideos: DraftVideo[] } | null;
  editedScriptId: string | null;
}

let shop: Shop;
let pictures: string;
beforeAll(async () => {
  shop = await openShop(PRODUCT);
  pictures = mkdtempSync(join(tmpdir(), 'reelsmith-presenter-'));
  writeFileSync(join(pictures, 'presenter.jpg'), await drawnPortrait());
});
afterAll(async () => {
  await shop?.close();
  rmSync(pictures, { recursive: true, force: true });
});
const running = productInBrowser(() => ({ OUTBOUND_ALLOW_HOSTS: shop.host }));

const projectIdOf = (page: Page) => new URL(page.url()).searchParams.get('projectId') ?? '';

/** The draft the page keeps in local storage for the project in the address bar. */
const localDraft = (page: Page): Promise<Draft | null> =>
  page.evaluate((id) => JSON.parse(localStorage.getItem(`projectDraftData-${id}`) ?? 'null') as Draft | null, projectIdOf(page));

/** Reloads and waits until the page has restored its project again. */
async function reload(page: Page) {
  await page.reload();
  await page.waitForLoadState('networkidle').catch(() => {});
}

/** The product's pictures as shown, once each has really loaded. */
async function shownPictures(page: Page): Promise<number> {
  const images = page.getByRole('list', { name: 'Assets' }).locator('img');
  return images.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length);
}

const progress = (page: Page) => page.getByRole('status').filter({ hasText: 'Parsing content' });

describe('link to video', () => {
  it('a pasted link opens the product editor; reloaded while analysing, it shows what the same analysis found', async () => {
    const { page } = running.browser;
    await activeUser(page, running.product, 'link-to-video@example.com');
    await visit(page, running.product.base, '/tools/link-to-video');
    await page.getByRole('textbox', { name: 'Product link' }).fill(shop.productUrl);
    await page.getByRole('button', { name: 'Generate video' }).click();
    await page.waitForURL('**/tools/link-to-video/edit-product?projectId=*');
    await page.getByText('Analysing your product…').waitFor();
    const submitted = await localDraft(page);
    expect(submitted).toMatchObject({ taskPath: 'link-analysis', taskStatus: expect.stringMatching(/SUBMITTED|IN_PROGRESS/) });

    await reload(page);
    expect(pathOf(page)).toBe('/tools/link-to-video/edit-product');
    const name = page.locator('#product-name');
    await expect.poll(() => name.inputValue(), { timeout: 60_000 }).toBe(PRODUCT.name);
    await expect.poll(() => page.locator('#product-description').inputValue()).toBe(PRODUCT.description);
    await expect.poll(() => shownPictures(page), { timeout: 30_000 }).toBe(PRODUCT.colours.length);
    expect(await localDraft(page)).toMatchObject({ taskId: submitted?.taskId, taskStatus: 'SUCCESS' });
  });

  it('a reload right after an edit brings the edited product back', async () => {
    const { page } = running.browser;
    const projectId = projectIdOf(page);
    await page.locator('#product-name').fill(RENAMED);
    await page.getByText('15 s', { exact: true }).click();
    await reload(page);
    expect(pathOf(page)).toBe('/tools/link-to-video/edit-product');
    expect(projectIdOf(page)).toBe(projectId);
    await expect.poll(() => page.locator('#product-name').inputValue()).toBe(RENAMED);
    await expect.poll(() => shownPictures(page), { timeout: 30_000 }).toBe(PRODUCT.colours.length);
  });

  it(
    'generating shows its progress; a reload stays on it and the same task delivers the previews',
    async () => {
      const { page } = running.browser;
      await page.getByRole('button', { name: 'Generate videos' }).click();
      await page.waitForURL('**/tools/link-to-video/preview?projectId=*');
      await progress(page).waitFor();
      const submitted = await localDraft(page);
      expect(submitted).toMatchObject({ taskPath: 'link-video', taskStatus: expect.stringMatching(/SUBMITTED|IN_PROGRESS/) });

      await reload(page);
      expect(pathOf(page)).toBe('/tools/link-to-video/preview');
      await progress(page).waitFor();
      // The task has answered (the reload waited for the network to settle), and a fresh server has timed no previews
      // yet: no made-up time is shown (decision "Progress estimates").
      expect(await progress(page).getByRole('timer').count()).toBe(0);
      const previews = page.getByRole('list', { name: 'Previews' }).locator('video');
      // Previews appear one by one as they are made; the task ends when the last one is.
      await expect.poll(() => previews.count(), { timeout: RENDER_MS, interval: 1000 }).toBeGreaterThan(0);
      await expect.poll(async () => (await localDraft(page))?.taskStatus, { timeout: RENDER_MS, interval: 1000 }).toBe('SUCCESS');
      const done = await localDraft(page);
      expect(done?.taskId).toBe(submitted?.taskId);
      expect(done?.taskStatus).toBe('SUCCESS');
      expect(done?.preview?.previewVideos.every((video) => video.taskId === submitted?.taskId)).toBe(true);
      expect(await previews.count()).toBe(done?.preview?.previewVideos.length);
      // Every preview plays: the browser read its length.
      await expect
        .poll(() => previews.evaluateAll((videos) => videos.every((v) => (v as HTMLVideoElement).duration > 10)), { timeout: 30_000 })
        .toBe(true);
    },
    RENDER_MS + 60_000,
  );

  it(
    'an edited script in the quick editor re-renders the edited video, and survives a reload',
    async () => {
      const { page } = running.browser;
      const before = await localDraft(page);
      const editedId = before?.editedScriptId;
      const editedUrl = before?.preview?.previewVideos.find((video) => video.scriptId === editedId)?.videoUrl;
      const script = page.getByRole('textbox', { name: 'Script' });
      await expect.poll(() => script.inputValue()).not.toBe('');
      await script.fill(SCRIPT.join('\n\n'));
      // Another subtitle style goes with the edited script.
      const styles = page.getByRole('region', { name: 'Subtitle style' });
      await expect.poll(() => styles.getByRole('radio').count()).toBeGreaterThan(1);
      // The radio itself is hidden under its picture: a person clicks the picture.
      await styles.locator('label').last().click();
      await expect.poll(() => styles.getByRole('radio').last().isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Update video' }).click();
      const quickEditor = page.getByRole('complementary', { name: 'Quick editor' });
      await quickEditor.getByRole('status').waitFor();
      // The previews stay in view beside the editor scrolled to its end: a person edits while watching the video.
      const { scrolled, viewport } = (await page.evaluate(
        '(() => { window.scrollTo(0, document.body.scrollHeight); return { scrolled: window.scrollY, viewport: window.innerHeight }; })()',
      )) as { scrolled: number; viewport: number };
      expect(scrolled).toBeGreaterThan(200);
      const previewsBox = await page.getByRole('list', { name: 'Previews' }).boundingBox();
      expect(previewsBox?.y).toBeGreaterThanOrEqual(60);
      expect(previewsBox?.y).toBeLessThan(viewport / 2);
      const submitted = await localDraft(page);
      expect(submitted?.taskPath).toBe('script-update');

      await reload(page);
      expect(pathOf(page)).toBe('/tools/link-to-video/preview');
      await expect.poll(() => script.inputValue()).toBe(SCRIPT.join('\n'));
      await expect.poll(async () => (await localDraft(page))?.taskStatus, { timeout: RENDER_MS, interval: 1000 }).toBe('SUCCESS');
      const after = await localDraft(page);
      expect(after?.taskId).toBe(submitted?.taskId);
      const edited = after?.preview?.previewVideos.find((video) => video.scriptId === after.editedScriptId);
      expect(edited?.videoUrl).toBeTruthy();
      expect(edited?.videoUrl).not.toBe(editedUrl);
      expect(after?.preview?.previewVideos).toHaveLength(before?.preview?.previewVideos.length ?? 0);
      const segments = after?.preview?.scriptContentList.find((item) => item.scriptId === after.editedScriptId)?.segments;
      expect(segments?.map((segment) => segment.segText)).toEqual(SCRIPT);
      await expect.poll(() => script.inputValue()).toBe(SCRIPT.join('\n'));
    },
    RENDER_MS + 60_000,
  );

  it(
    'exporting the edited video: a reload keeps rendering, then it is ready and the download is an MP4',
    async () => {
      const { page } = running.browser;
      await page.getByRole('checkbox', { name: 'Video 1' }).check();
      // The price is on the button, and spending it is confirmed with what will be left (100 - 30).
      await openOverlay(page, page.getByRole('button', { name: 'Render 1 video · 30 credits' }));
      await expect.poll(() => bodyText(page)).toContain('You will have 70 credits left.');
      await page.getByRole('button', { name: 'Yes, render' }).click();
      await page.waitForURL('**/tools/link-to-video/video-export?projectId=*');
      await progress(page).waitFor();
      const submitted = await localDraft(page);
      expect(submitted?.taskPath).toBe('export-video');
      // The export is paid for once (link2V_15s, 30 of the 100 sign-up credits), and the header says so.
      await page.getByRole('button', { name: '70 credits' }).waitFor();

      await reload(page);
      expect(pathOf(page)).toBe('/tools/link-to-video/video-export');
      await progress(page).waitFor();
      await expect
        .poll(() => bodyText(page), { timeout: RENDER_MS, interval: 1000 })
        .toContain('Your video has been exported and is ready for download.');
      const done = await localDraft(page);
      expect(done?.taskId).toBe(submitted?.taskId);
      expect(done?.exports?.exportVideos.map((video) => video.taskId)).toEqual([submitted?.taskId]);

      const href = await page.getByRole('link', { name: 'Download' }).getAttribute('href');
      expect(href).toBeTruthy();
      const response = await page.request.get(new URL(href ?? '', running.product.base).toString());
      expect(response.status()).toBe(200);
      // Saved as <project>-<n>-<length>s.mp4, not "object.mp4".
      expect(await page.getByRole('link', { name: 'Download' }).getAttribute('download')).toMatch(/-1-15s\.mp4$/);
      expect(response.headers()['content-disposition']).toMatch(/^attachment; filename=".+-1-15s\.mp4"/);
      const probe = ffprobe(await response.body());
      expect(probe.format.format_name).toContain('mp4');
      const video = probe.streams.find((stream) => stream.codec_type === 'video');
      expect(video).toMatchObject({ codec_name: 'h264', width: 1080, height: 1920 });
      expect(probe.streams.some((stream) => stream.codec_type === 'audio')).toBe(true);
      expect(Number(probe.format.duration)).toBeGreaterThan(14);
      expect(Number(probe.format.duration)).toBeLessThan(16);
    },
    RENDER_MS + 60_000,
  );

  it('the export page reopened from edit-product goes straight to the exported video', async () => {
    const { page } = running.browser;
    const projectId = projectIdOf(page);
    await visit(page, running.product.base, '/tools/link-to-video');
    await visit(page, running.product.base, `/tools/link-to-video/edit-product?projectId=${projectId}`);
    await page.waitForURL('**/tools/link-to-video/video-export?projectId=*');
    await expect.poll(() => bodyText(page)).toContain('Your video has been exported and is ready for download.');
  });

  it(
    'a presenter of my own put on camera in the quick editor re-renders the video, and its export talks, the stand-in’s seconds free',
    async () => {
      const { page } = running.browser;
      // From the exported video, back to the previews, as a person goes.
      await page.getByRole('button', { name: 'Back to previews' }).click();
      await page.waitForURL('**/tools/link-to-video/preview?projectId=*');
      const panel = page.getByRole('complementary', { name: 'Quick editor' }).getByRole('region', { name: 'Presenter' });
      // No lip-sync vendor here: the panel says the rendered video shows a free, marked stand-in.
      await expect.poll(() => panel.innerText(), { timeout: 30_000 }).toContain('a free, marked stand-in');
      await panel.locator('input[type=file][aria-label="My own photo file"]').setInputFiles(join(pictures, 'presenter.jpg'));
      await panel.getByRole('checkbox', { name: "I have the right to use this person's face in my videos" }).check();
      await panel.getByRole('textbox', { name: 'Name this presenter to keep them' }).fill('Sam');
      await panel.getByRole('button', { name: 'Save as my presenter' }).click();
      // Kept, chosen, and the edited video re-rendered with them at once.
      await expect.poll(async () => (await localDraft(page))?.taskPath, { timeout: 30_000 }).toBe('script-update');
      await expect.poll(async () => (await localDraft(page))?.taskStatus, { timeout: RENDER_MS, interval: 1000 }).toBe('SUCCESS');
      const onCamera = page.getByRole('list', { name: 'Previews' }).getByText(/^Presenter · \d+ s on camera$/);
      await onCamera.waitFor({ timeout: 30_000 });
      const seconds = Number(/(\d+) s/.exec(await onCamera.innerText())?.[1]);
      expect(seconds).toBeGreaterThan(1);

      // The stand-in's seconds on camera are free (decision "Stand-ins are free"): the export costs its own 30.
      const before = await localCredits(page);
      await page.getByRole('checkbox', { name: 'Video 1' }).check();
      await openOverlay(page, page.getByRole('button', { name: 'Render 1 video · 30 credits' }));
      await page.getByRole('button', { name: 'Yes, render' }).click();
      await page.waitForURL('**/tools/link-to-video/video-export?projectId=*');
      await page.getByRole('button', { name: `${before - 30} credits` }).waitFor({ timeout: 30_000 });
      await expect
        .poll(() => bodyText(page), { timeout: RENDER_MS, interval: 1000 })
        .toContain('Your video has been exported and is ready for download.');
      const href = await page.getByRole('link', { name: 'Download' }).getAttribute('href');
      const response = await page.request.get(new URL(href ?? '', running.product.base).toString());
      const bytes = await response.body();
      const video = ffprobe(bytes).streams.find((stream) => stream.codec_type === 'video');
      expect(video).toMatchObject({ width: 1080, height: 1920 });
      // It opens on the presenter: the sandbox's stand-in, saying what it stands for.
      expect(await readText(frameAt(bytes, 0.5))).toContain('talking presenter');
    },
    2 * RENDER_MS + 60_000,
  );
});

interface Probe {
  format: { format_name: string; duration: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
}

/** The credits the header says the user has. */
async function localCredits(page: Page): Promise<number> {
  const label = await page.getByRole('button', { name: /^\d+ credits$/ }).innerText();
  return Number(label.replace(/\D/g, ''));
}

/** What ffprobe makes of downloaded bytes. */
function ffprobe(bytes: Buffer): Probe {
  const dir = mkdtempSync(join(tmpdir(), 'reelsmith-download-'));
  try {
    const file = join(dir, 'video.mp4');
    writeFileSync(file, bytes);
    const out = execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      encoding: 'utf8',
    });
    return JSON.parse(out) as Probe;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
