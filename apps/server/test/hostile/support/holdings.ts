// What a user owns, made through the API as the web app makes it (a project with a draft, a stored picture, an
// upload not yet registered, a captured page, a URL import still waiting, a brand kit with that picture as its
// logo) plus a task of every kind written straight to the queue (no worker runs, so they stay as written): the ids
// one user's attacks send of another's; a webhook endpoint with a delivery in its log; and a batch (no driver runs).
import { randomBytes, randomUUID } from 'node:crypto';
import { BRAND_KIT_DEFAULT, type LibraryAsset, type TaskKind, TaskKind as TaskKinds, type WebhookEndpoint } from '@reelsmith/contract';
import { drawnPortrait, makeImage } from '@reelsmith/media/fixtures';
import { tasks } from '../../../src/db/schema.js';
import { emitEvent } from '../../../src/modules/webhooks/events.js';
import type { Browser } from '../../support/app.js';
import { putTo, putUrl, upload } from '../../support/files.js';
import type { TestApp } from './campaign.js';

export interface Holdings {
  userId: string;
  projectId: string;
  imageFileId: string;
  imageResKey: string;
  /** Uploaded to a put-url and not registered. */
  uploadKey: string;
  /** A page the browser extension captured. */
  pageKey: string;
  /** A URL import that has not run. */
  urlImportFileId: string;
  /** A waiting task of every kind. */
  tasks: Record<TaskKind, string>;
  /** A link-video task that succeeded, and the script of its preview. */
  videoTaskId: string;
  scriptId: string;
  /** A webhook endpoint and one delivery waiting in its log (no dispatcher runs). */
  endpointId: string;
  deliveryId: string;
  /** A batch of one row, waiting. */
  batchId: string;
  /** A presenter of their own (the Avatar tool's), saved from a portrait of theirs. */
  presenterId: string;
  /** Text that only this user's data holds: none of it may appear in an answer to another user. */
  secrets: string[];
}

export async function holdingsOf(t: TestApp, browser: Browser, label: string): Promise<Holdings> {
  const marker = `${label}-secret-${randomBytes(4).toString('hex')}`;
  const me = (await browser.ok('GET', '/users/me')) as { userId: string; email: string; username: string };
  const { projectId } = (await browser.ok('POST', '/project/createProject', { body: { projectName: `${marker} project` } })) as {
    projectId: string;
  };
  await browser.ok('POST', '/project/saveDraftFile', { body: { projectId, draftContent: JSON.stringify({ note: `${marker} draft` }) } });

  const image = await upload(t, browser, await makeImage(64, 48, 'png'), 'png', `${marker} picture.png`);
  if (image.body.code !== 0) throw new Error(`upload answered ${image.body.message}`);
  const asset = image.body.data as LibraryAsset;
  const pending = await putUrl(browser, 'png');
  await putTo(t, pending, await makeImage(32, 32, 'png'));
  const page = (await browser.ok('POST', '/link-video/page/upload', { body: { html: `<h1>${marker} page</h1>` } })) as { resKey: string };
  const { fileId: urlImportFileId } = (await browser.ok('POST', '/assert/url-task', {
    body: { url: `https://shop.example/${marker}.png` },
  })) as { fileId: string };

  await browser.ok('POST', '/brand-kit/save', {
    body: { ...BRAND_KIT_DEFAULT, logoResKey: asset.resKey, callToAction: marker },
  });

  const scriptId = randomUUID();
  const videoTaskId = randomUUID();
  const waiting = Object.fromEntries(TaskKinds.options.map((kind) => [kind, randomUUID()])) as Record<TaskKind, string>;
  await t.ctx.db.insert(tasks).values([
    ...TaskKinds.options.map((kind) => ({
      id: waiting[kind],
      userId: me.userId,
      kind,
      projectId,
      input: { note: `${marker} input` },
      status: 'SUBMITTED' as const,
    })),
    {
      id: videoTaskId,
      userId: me.userId,
      kind: 'link-video',
      projectId,
      input: { projectId, productName: `${marker} product` },
      status: 'SUCCESS' as const,
      result: {
        previewVideos: [{ resKey: asset.resKey, scriptId, videoUrl: asset.fileUrl, taskId: videoTaskId }],
        scriptContentList: [{ scriptId, segments: [{ segId: 0, segText: `${marker} script` }] }],
      },
    },
  ]);

  const hook = (await browser.ok('POST', '/webhooks/endpoints/create', {
    body: { url: `https://hooks.example/${marker}`, events: ['batch.finished'] },
  })) as WebhookEndpoint;
  await emitEvent(t.ctx.db, me.userId, 'batch.finished', { note: `${marker} event` });
  const { list } = (await browser.ok('POST', '/webhooks/deliveries/list', {
    body: { endpointId: hook.endpointId, page: 1, pageSize: 1 },
  })) as {
    list: { deliveryId: string }[];
  };

  const { batchId } = (await browser.ok('POST', '/batch/create', { body: { text: `https://shop.example/${marker}-product` } })) as {
    batchId: string;
  };

  const portrait = await upload(t, browser, await drawnPortrait(), 'jpeg', `${marker} portrait.jpg`);
  if (portrait.body.code !== 0) throw new Error(`upload answered ${portrait.body.message}`);
  const { presenterId } = (await browser.ok('POST', '/video/avatar/presenters', {
    body: { resKey: (portrait.body.data as LibraryAsset).resKey, name: `${marker} presenter`, gender: 'female', consent: true },
  })) as { presenterId: string };

  return {
    userId: me.userId,
    projectId,
    imageFileId: asset.fileId,
    imageResKey: asset.resKey as string,
    uploadKey: pending.resKey,
    pageKey: page.resKey,
    urlImportFileId,
    tasks: waiting,
    videoTaskId,
    scriptId,
    endpointId: hook.endpointId,
    deliveryId: list[0]?.deliveryId as string,
    batchId,
    presenterId,
    secrets: [marker, me.email, me.username, hook.secret],
  };
}
