import { assetList } from '@reelsmith/contract';
import { api } from '../../shared/api/client';
import { isStored, type StoredAsset } from '../../shared/library/LibraryPickerModal';
import { uploadToLibrary } from '../../shared/library/uploadToLibrary';

/** A picture a tool works on: a stored file of the user's, with its size when known. */
export interface PickedImage {
  fileId: string;
  name: string;
  resKey: string;
  url: string;
  width: number | null;
  height: number | null;
}

export const fromAsset = (asset: StoredAsset): PickedImage => ({
  fileId: asset.fileId,
  name: asset.fileName,
  resKey: asset.resKey,
  url: asset.fileUrl,
  width: asset.width,
  height: asset.height,
});

/** What a task is sent for a picture: the stored file's key, which the service reads itself. */
export const imageRef = (image: PickedImage): { resKey: string } => ({ resKey: image.resKey });

/**
 * Uploads a picture from the computer and keeps it in the assets library: the service checks its content when
 * it is registered, and the tool then works on a stored file like one picked from the library.
 */
export async function uploadImage(file: File, signal?: AbortSignal): Promise<PickedImage> {
  return fromAsset(await uploadToLibrary(file, { signal }));
}

const LOOKUP_PAGE_SIZE = 100;
const LOOKUP_MAX_PAGES = 50;

/** A picture of the library by its id (the assets page links to a tool with `?fileId=`), or null if it has none. */
export async function findLibraryImage(fileId: string, signal?: AbortSignal): Promise<PickedImage | null> {
  for (let page = 1; page <= LOOKUP_MAX_PAGES; page++) {
    const { list } = await api(assetList, {
      body: { page, pageSize: LOOKUP_PAGE_SIZE, type: 'image', status: 'completed' },
      signal,
    });
    const asset = list.find((entry) => entry.fileId === fileId);
    if (asset) return isStored(asset) ? fromAsset(asset) : null;
    if (list.length < LOOKUP_PAGE_SIZE) return null;
  }
  return null;
}
