import { assetUrlTaskSubmit } from '@reelsmith/contract';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client';
import { useLibraryUploads } from '../../shared/library/useLibraryUploads';
import { toast } from '../../shared/ui/toast';

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
  const [imports, setImports] = useState<PendingImport[]>([]);
  const { uploads, upload } = useLibraryUploads(
    useCallback(
      (_: unknown, file: File) => {
        toast.success(t('upload.done', { name: file.name }));
        onAdded();
      },
      [onAdded, t],
    ),
  );

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
