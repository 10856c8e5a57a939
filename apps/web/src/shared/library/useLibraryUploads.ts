import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoredAsset } from './LibraryPickerModal';
import { uploadToLibrary } from './uploadToLibrary';

/** An upload from the computer under way: its progress, and how to stop it. */
export interface PendingUpload {
  id: number;
  name: string;
  percent: number;
  cancel: () => void;
}

/**
 * Files from the computer uploaded into the library one request each, with their progress while they run; each
 * stored file is handed to `onStored`. Failures are already said by the upload and the API client; a cancelled
 * upload says nothing. Leaving the page cancels what is still uploading.
 */
export function useLibraryUploads(onStored: (asset: StoredAsset, file: File) => void) {
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const nextId = useRef(0);
  const running = useRef(new Set<AbortController>());

  useEffect(() => {
    const controllers = running.current;
    return () => {
      for (const controller of controllers) controller.abort();
    };
  }, []);

  const uploadOne = useCallback(
    async (file: File) => {
      const id = nextId.current++;
      const controller = new AbortController();
      running.current.add(controller);
      const change = (percent: number) => setUploads((all) => all.map((upload) => (upload.id === id ? { ...upload, percent } : upload)));
      setUploads((all) => [...all, { id, name: file.name, percent: 0, cancel: () => controller.abort() }]);
      try {
        onStored(await uploadToLibrary(file, { onProgress: change, signal: controller.signal }), file);
      } catch {
        // Already said by the upload or the API client; a cancelled upload says nothing.
      } finally {
        running.current.delete(controller);
        setUploads((all) => all.filter((upload) => upload.id !== id));
      }
    },
    [onStored],
  );

  const upload = useCallback((files: readonly File[]) => files.forEach(uploadOne), [uploadOne]);
  return { uploads, upload };
}
