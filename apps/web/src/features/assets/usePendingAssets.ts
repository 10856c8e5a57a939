import { assetUrlTaskSubmit } from '@reelsmith/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client';
import { uploadToLibrary } from '../../shared/library/uploadToLibrary';
import { toast } from '../../shared/ui/toast';

export interface PendingUpload {
  id: number;
  name: string;
  percent: number;
  cancel: () => void;
}

export interface PendingImport {
  fileId: string;
  url: string;
}

/**
 * Uploads from the computer and imports from URLs started on this page, shown as cards until they end.
 * Each that ends calls `onAdded`, so the lists and statistics can show the new asset (or its failure).
 * Leaving the page cancels the uploads; imports go on on the service and resume as draft cards.
 */
export function usePendingAssets(onAdded: () => void) {
  const { t } = useTranslation('assets');
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const [imports, setImports] = useState<PendingImport[]>([]);
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
        await uploadToLibrary(file, { onProgress: change, signal: controller.signal });
        toast.success(t('upload.done', { name: file.name }));
        onAdded();
      } catch {
        // Already said by the upload or the API client; a cancelled upload says nothing.
      } finally {
        running.current.delete(controller);
        setUploads((all) => all.filter((upload) => upload.id !== id));
      }
    },
    [onAdded, t],
  );

  const upload = useCallback((files: readonly File[]) => files.forEach(uploadOne), [uploadOne]);

  /** Starts an import; resolves once the service has taken the URL (rejects if it refused it, already said). */
  const importUrl = useCallback(async (url: string) => {
    const { fileId } = await api(assetUrlTaskSubmit, { body: { url } });
    setImports((all) => [{ fileId, url }, ...all]);
  }, []);

  const onImportSettled = useCallback(
    (fileId: string) => {
      setImports((all) => all.filter((pending) => pending.fileId !== fileId));
      onAdded();
    },
    [onAdded],
  );

  return { uploads, imports, upload, importUrl, onImportSettled };
}
