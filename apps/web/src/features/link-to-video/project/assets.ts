import { MAX_ASSETS_PER_PROJECT } from '@reelsmith/contract';
import type { StoredAsset } from '../../../shared/library/LibraryPickerModal';
import type { AssetUrlTask, Product, ProjectAsset } from './types';

const VIDEO_FORMATS = new Set(['mp4', 'mov', 'webm', 'm4v']);

/** The extension of a file name, key or URL path, lower case, or null. */
export function formatOfName(name: string): string | null {
  const path = name.split(/[?#]/)[0] ?? '';
  return /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase() ?? null;
}

export const isVideoFormat = (format: string | null): boolean => format !== null && VIDEO_FORMATS.has(format);

/** The last part of a URL path or key, for an item that came without a name. */
export function nameOf(urlOrKey: string): string {
  const path = urlOrKey.split(/[?#]/)[0] ?? urlOrKey;
  return decodeURIComponent(path.split('/').filter(Boolean).pop() ?? urlOrKey);
}

export const assetCount = (product: Product): number => product.productImages.length + product.productVideos.length;

/** A stored library file as a product asset, with where it came from. */
export const toProjectAsset = (asset: StoredAsset): ProjectAsset => ({
  fileId: asset.fileId,
  fileName: asset.fileName,
  fileUrl: asset.fileUrl,
  resKey: asset.resKey,
  format: asset.format,
  origin: asset.source,
});

export const allAssets = (product: Product): ProjectAsset[] => [...product.productVideos, ...product.productImages];

/**
 * Whether a picture of the product was made by the generation tools: the export's AI-generated label is on by
 * default then. Items whose origin is not known (added before it was kept) count as not generated.
 */
export const hasGeneratedAssets = (product: Product | null): boolean =>
  product !== null && allAssets(product).some((asset) => asset.origin === 'generated');

/** At most MAX_ASSETS_PER_PROJECT items (spec "Validation rules"): videos are kept first, images fill the slots left. */
export function capAssets(videos: readonly ProjectAsset[], images: readonly ProjectAsset[], max = MAX_ASSETS_PER_PROJECT) {
  const keptVideos = videos.slice(0, max);
  const keptImages = images.slice(0, max - keptVideos.length);
  return {
    productVideos: keptVideos,
    productImages: keptImages,
    dropped: videos.length + images.length - keptVideos.length - keptImages.length,
  };
}

/** How an addition went: all added, some dropped at the cap, or none (the product was already full). */
export type AddOutcome = 'added' | 'partial' | 'none';

/** The i18n key of the message for an addition that hit the cap (spec "Validation rules"), or null. */
export const CAP_MESSAGES: Record<AddOutcome, string | null> = {
  added: null,
  partial: 'product.partAssetsError',
  none: 'product.addAssetsError',
};

/** Adds items to the product, sorted into videos and images by format, within the cap. */
export function addAssets(product: Product, items: readonly ProjectAsset[]): { product: Product; outcome: AddOutcome } {
  if (items.length === 0) return { product, outcome: 'added' };
  if (assetCount(product) >= MAX_ASSETS_PER_PROJECT) return { product, outcome: 'none' };
  const videos = [...product.productVideos, ...items.filter((item) => isVideoFormat(item.format))];
  const images = [...product.productImages, ...items.filter((item) => !isVideoFormat(item.format))];
  const { dropped, ...kept } = capAssets(videos, images);
  return { product: { ...product, ...kept }, outcome: dropped > 0 ? 'partial' : 'added' };
}

export function removeAsset(product: Product, fileId: string): Product {
  return {
    ...product,
    productImages: product.productImages.filter((item) => item.fileId !== fileId),
    productVideos: product.productVideos.filter((item) => item.fileId !== fileId),
  };
}

/** When the product is replaced, URL tasks for files no longer in it are dropped (spec "States and transitions"). */
export function tasksForProduct(tasks: readonly AssetUrlTask[], product: Product): AssetUrlTask[] {
  const present = new Set(allAssets(product).map((item) => item.fileId));
  return tasks.filter((task) => present.has(task.fileId));
}

/** A URL import submitted: the task moves from NOT_START to SUBMITTED with the id to poll. */
export const submitted = (tasks: readonly AssetUrlTask[], fileId: string, taskId: string): AssetUrlTask[] =>
  tasks.map((task) => (task.fileId === fileId ? { ...task, taskId, taskStatus: 'SUBMITTED' } : task));

/** A URL import stored: the item becomes the stored file (in the list its format belongs to) and its task goes. */
export function importSucceeded(
  product: Product,
  tasks: readonly AssetUrlTask[],
  fileId: string,
  stored: { fileId: string; resKey: string; fileUrl: string },
): { product: Product; tasks: AssetUrlTask[] } {
  const item = allAssets(product).find((asset) => asset.fileId === fileId);
  const remaining = tasks.filter((task) => task.fileId !== fileId);
  if (!item) return { product, tasks: remaining };
  const format = formatOfName(stored.resKey) ?? item.format;
  const replacement: ProjectAsset = { ...item, fileId: stored.fileId, resKey: stored.resKey, fileUrl: stored.fileUrl, format };
  const swap = (list: ProjectAsset[]) => list.map((asset) => (asset.fileId === fileId ? replacement : asset));
  const wasVideo = product.productVideos.some((asset) => asset.fileId === fileId);
  if (wasVideo === isVideoFormat(format)) {
    return {
      product: { ...product, productImages: swap(product.productImages), productVideos: swap(product.productVideos) },
      tasks: remaining,
    };
  }
  // The link's name guessed the wrong kind; the stored content decides.
  const without = removeAsset(product, fileId);
  return { product: addAssets(without, [replacement]).product, tasks: remaining };
}

/** A URL import failed: the item and its task are removed (spec "States and transitions"). */
export const importFailed = (product: Product, tasks: readonly AssetUrlTask[], fileId: string) => ({
  product: removeAsset(product, fileId),
  tasks: tasks.filter((task) => task.fileId !== fileId),
});
