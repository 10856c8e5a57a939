import { adLanguage, type CallQuery, linkVideoTemplates, type TemplateId, type TemplatePreview } from '@reelsmith/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callQuery } from '../../../shared/api/queries';
import { offerOf } from '../project/offer';
import type { Project } from '../project/types';

type ThumbnailQuery = NonNullable<CallQuery<typeof linkVideoTemplates>>;

/** The hook's words are cut to what the call takes; a hook shows a few words anyway. */
const NAME_LENGTH = 120;
/** Thumbnail links live an hour; asked again after half of it, a page left open never shows a dead one. */
const THUMBNAILS_STALE_MS = 30 * 60_000;
/** Typing a name or a price asks for new thumbnails once the typing has stopped this long. */
const SETTLE_MS = 800;

/**
 * What the thumbnails are drawn from (decision "Template picker"): the project's first stored picture with the
 * product's name and offer, so the user sees their own product in each style, in the video's shape. Without a
 * stored picture (none yet, or all still importing), the sample product.
 */
export function thumbnailQuery(project: Project): ThumbnailQuery {
  const aspectRatio = project.editorConfig.aspectRatio ?? '9:16';
  const importing = new Set(project.assetUrlTasks.map((task) => task.fileId));
  const product = project.product;
  const picture = product?.productImages.find((image) => !importing.has(image.fileId));
  if (!product || !picture) return { aspectRatio };
  const offer = offerOf(product).offer;
  return {
    fileId: picture.fileId,
    aspectRatio,
    language: adLanguage(project.editorConfig.language, product.productFacts),
    name: product.productName.trim().slice(0, NAME_LENGTH).trim() || undefined,
    price: offer?.price,
    currency: offer?.currency,
    listPrice: offer?.listPrice,
  };
}

/** `value` once it has stopped changing for `ms`: what is typed reaches the service once, not once a key. */
function useSettled<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return JSON.parse(settled) as T;
}

/**
 * The thumbnail of each template for the project, by template. A picture the service no longer has (deleted
 * from the library meanwhile) falls back to the sample product rather than leaving the picker empty.
 */
export function useTemplateThumbnails(project: Project): { thumbnails: Partial<Record<TemplateId, string>>; loading: boolean } {
  const query = useSettled(thumbnailQuery(project), SETTLE_MS);
  const ownPicture = query.fileId !== undefined;
  const own = useQuery({ ...callQuery(linkVideoTemplates, { query, silent: ownPicture }), staleTime: THUMBNAILS_STALE_MS });
  const fallback = ownPicture && own.isError;
  const sample = useQuery({
    ...callQuery(linkVideoTemplates, { query: { aspectRatio: query.aspectRatio } }),
    staleTime: THUMBNAILS_STALE_MS,
    enabled: fallback,
  });
  const answer: TemplatePreview[] | undefined = fallback ? sample.data : own.data;
  return {
    thumbnails: Object.fromEntries((answer ?? []).map((item) => [item.templateId, item.previewUrl])),
    loading: fallback ? sample.isPending : own.isPending,
  };
}
