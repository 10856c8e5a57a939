import { assetUploadWithUrl } from '@reelsmith/contract';
import { api } from '../api/client';
import { type UploadOptions, uploadFile } from '../api/upload';
import { isStored, type StoredAsset } from './LibraryPickerModal';

/**
 * Uploads a file from the computer into the user's assets library and answers it as stored: the bytes to storage,
 * then the register call, where the service checks the content. Failures are ApiErrors, already said by the client.
 */
export async function uploadToLibrary(file: File, options: UploadOptions = {}): Promise<StoredAsset> {
  const resKey = await uploadFile(file, options);
  const asset = await api(assetUploadWithUrl, { body: { resKey, fileName: file.name }, signal: options.signal });
  if (!isStored(asset)) throw new Error(`Uploaded file ${asset.fileId} was not stored`);
  return asset;
}
