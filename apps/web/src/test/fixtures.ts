import type { LibraryAsset } from '@reelsmith/contract';

/** A stored picture of the assets library, as the service lists it. */
export const libraryAsset = (fileId: string, change: Partial<LibraryAsset> = {}): LibraryAsset => ({
  fileId,
  fileName: `${fileId}.png`,
  fileUrl: `/files/${fileId}.png?sig=1`,
  downloadUrl: `/files/${fileId}.png?sig=1&download=1`,
  thumbnailUrl: `/files/${fileId}.webp?sig=1`,
  resKey: `u1/${fileId}.png`,
  format: 'png',
  type: 'image',
  source: 'local',
  status: 'completed',
  projectId: null,
  sourceUrl: null,
  errorMsg: null,
  size: 1024,
  width: 640,
  height: 480,
  duration: null,
  createTime: '2024-05-01T10:00:00Z',
  ...change,
});
