import { assetUrls, fileUrlTransfer } from '@reelsmith/contract';
import { api } from '../../../shared/api/client';
import { allAssets } from './assets';
import { emptyProduct, type Project } from './types';

const TRANSFER_BATCH = 200;
const URLS_BATCH = 100;

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Asks in batches the call accepts; a batch that fails leaves its links as they were. */
async function lookUp(
  keys: string[],
  size: number,
  ask: (batch: string[]) => Promise<Record<string, string>>,
): Promise<Record<string, string>> {
  const unique = [...new Set(keys)];
  const answers = await Promise.all(chunks(unique, size).map((batch) => ask(batch).catch(() => ({}))));
  return Object.assign({}, ...answers);
}

/** The keys of a project whose links must be fresh: stored items, previews and exports. */
export function keysOf(project: Project) {
  const importing = new Set(project.assetUrlTasks.map((task) => task.fileId));
  const assets = allAssets(project.product ?? emptyProduct()).filter((item) => !importing.has(item.fileId));
  return {
    resKeys: [
      ...assets.flatMap((item) => (item.resKey ? [item.resKey] : [])),
      ...(project.preview?.previewVideos ?? []).map((video) => video.resKey),
      ...(project.exports?.exportVideos ?? []).map((video) => video.resKey),
    ],
    fileIds: assets.filter((item) => !item.resKey).map((item) => item.fileId),
  };
}

/** The project with every link answered put in place. */
export function withUrls(project: Project, byKey: Record<string, string>, byFileId: Record<string, string>): Project {
  const asset = <A extends { fileId: string; resKey: string | null; fileUrl: string }>(item: A): A => ({
    ...item,
    fileUrl: (item.resKey ? byKey[item.resKey] : byFileId[item.fileId]) ?? item.fileUrl,
  });
  const video = <V extends { resKey: string; videoUrl: string }>(item: V): V => ({
    ...item,
    videoUrl: byKey[item.resKey] ?? item.videoUrl,
  });
  return {
    ...project,
    product: project.product && {
      ...project.product,
      productImages: project.product.productImages.map(asset),
      productVideos: project.product.productVideos.map(asset),
    },
    preview: project.preview && { ...project.preview, previewVideos: project.preview.previewVideos.map(video) },
    exports: project.exports && { exportVideos: project.exports.exportVideos.map(video) },
  };
}

/** Fresh links for the project's keys and bare fileIds; `call` is the API client (a fake in tests). */
export async function lookUpUrls(project: Project, call: typeof api = api) {
  const { resKeys, fileIds } = keysOf(project);
  const [byKey, byFileId] = await Promise.all([
    lookUp(resKeys, TRANSFER_BATCH, (data) => call(fileUrlTransfer, { body: { data }, silent: true })),
    lookUp(fileIds, URLS_BATCH, (ids) => call(assetUrls, { body: { fileIds: ids }, silent: true })),
  ]);
  return { byKey, byFileId };
}

/**
 * Links are signed and expire, so a draft's are renewed (spec "States and transitions"): keys through the URL-transfer call, and
 * items known only by fileId (as link analysis answers them) through the asset URL call.
 */
export async function freshUrls(project: Project): Promise<Project> {
  const { byKey, byFileId } = await lookUpUrls(project);
  return withUrls(project, byKey, byFileId);
}
