import type { ProductFacts, ProductOffer, ProductRating, TaskQueryData, VideoChoices } from '@reelsmith/contract';
import { allAssets, capAssets, formatOfName, nameOf } from './assets';
import { emptyProduct, type Product, type Project, type ProjectAsset } from './types';

// What the link-to-video tasks answer, made into the project: pure, so they are tested without a service.

export type MediaRef = { fileId?: string; fileUrl?: string };

/** What a link analysis found, as the project takes it. */
export interface FoundProduct {
  productName: string;
  productDescription: string;
  images: MediaRef[];
  videos: MediaRef[];
  offer?: ProductOffer | undefined;
  brand?: string | undefined;
  rating?: ProductRating | undefined;
  facts?: ProductFacts | undefined;
}

/** What a link analysis answered, as the project takes it: media with neither a file nor a link are left out. */
export function foundInAnalysis(data: TaskQueryData<'link-analysis'>): FoundProduct {
  const kept = (items: MediaRef[] | undefined) => (items ?? []).filter((item) => item.fileId || item.fileUrl);
  return {
    productName: data.productName ?? '',
    productDescription: data.productDescription ?? '',
    images: kept(data.productImages),
    videos: kept(data.productVideos),
    offer: data.productOffer,
    brand: data.productBrand,
    rating: data.productRating,
    facts: data.productFacts,
  };
}

/**
 * The product an analysis found replaces the one in hand, keeping the chosen script, within the cap (videos
 * first). Media the service imported come with a fileId; a bare link becomes a URL import whose id stays
 * local until the import answers (`pending`). The price and brand are the page's; a page without a price keeps
 * the currency already chosen, else `defaultCurrency`, ready for a price typed by hand.
 */
export function productFromAnalysis(
  previous: Product | null,
  found: FoundProduct,
  defaultCurrency: string,
): { product: Product; pending: string[]; dropped: number } {
  const pending: string[] = [];
  const asset =
    (kind: string) =>
    (media: MediaRef, index: number): ProjectAsset => {
      const url = media.fileUrl ?? '';
      const fileId = media.fileId ?? `link-${kind}-${index}`;
      if (!media.fileId) pending.push(fileId);
      return { fileId, fileName: url ? nameOf(url) : fileId, fileUrl: url, resKey: null, format: url ? formatOfName(url) : null };
    };
  const { dropped, ...kept } = capAssets(found.videos.map(asset('video')), found.images.map(asset('image')));
  const product: Product = {
    ...emptyProduct(),
    ...previous,
    productName: found.productName,
    productDescription: found.productDescription,
    productPrice: found.offer?.price ?? '',
    productListPrice: found.offer?.listPrice ?? '',
    productCurrency: found.offer?.currency || previous?.productCurrency || defaultCurrency,
    productBrand: found.brand ?? '',
    productRating: found.rating ?? null,
    productFacts: found.facts ?? null,
    ...kept,
  };
  const present = new Set(allAssets(product).map((item) => item.fileId));
  return { product, pending: pending.filter((fileId) => present.has(fileId)), dropped };
}

/** The script fields of the video submit (spec "Entities"): the description or the user's own text, or none for AI. */
export function scriptFields(product: Product): { diyScript: boolean; diyScriptContent?: string } {
  if (product.scriptSource === 'ai') return { diyScript: false };
  return { diyScript: true, diyScriptContent: product.scriptSource === 'own' ? product.diyScriptContent : product.productDescription };
}

/** The script choice a video was submitted with, read back from its fields (the inverse of `scriptFields`). */
export function scriptChoiceOf(choices: VideoChoices): Pick<Product, 'scriptSource' | 'diyScriptContent'> {
  const own = choices.diyScriptContent ?? '';
  if (!choices.diyScript) return { scriptSource: 'ai', diyScriptContent: '' };
  return own === choices.productDescription
    ? { scriptSource: 'description', diyScriptContent: '' }
    : { scriptSource: 'own', diyScriptContent: own };
}

/** Stored items only: a link still importing has no file to make a video from. */
export const usableFileIds = (project: Project): string[] => {
  const importing = new Set(project.assetUrlTasks.map((task) => task.fileId));
  return allAssets(project.product ?? emptyProduct())
    .map((item) => item.fileId)
    .filter((fileId) => !importing.has(fileId));
};

/**
 * A script update's answer: its first video becomes the edited video (spec "States and transitions"), in the place of the one
 * that was edited; the other previews stay.
 */
export function withEditedVideo(project: Project, result: NonNullable<Project['preview']>): Project {
  const video = result.previewVideos[0];
  const preview = project.preview ?? { previewVideos: [], scriptContentList: [] };
  if (!video) return project;
  const script = result.scriptContentList.find((item) => item.scriptId === video.scriptId);
  const index = preview.previewVideos.findIndex((item) => item.scriptId === project.editedScriptId);
  const previewVideos = [...preview.previewVideos];
  if (index >= 0) previewVideos[index] = video;
  else previewVideos.unshift(video);
  const scriptContentList = [
    ...preview.scriptContentList.filter((item) => item.scriptId !== project.editedScriptId && item.scriptId !== video.scriptId),
    ...(script ? [script] : []),
  ];
  return { ...project, preview: { previewVideos, scriptContentList }, editedScriptId: video.scriptId };
}
