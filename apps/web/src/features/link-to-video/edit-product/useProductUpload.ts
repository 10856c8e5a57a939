import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadToLibrary } from '../../../shared/library/uploadToLibrary';
import { toProjectAsset } from '../project/assets';
import { projectController } from '../project/open';

export interface ProductUpload {
  id: number;
  name: string;
  percent: number;
}

/**
 * Pictures and videos from the computer added to the product (spec "Screens and routes" screen 3, local upload):
 * each is uploaded into the assets library, so the project uses a stored, checked file like one picked from there,
 * and added to the product as it lands (within the project's cap). Leaving the page cancels what is still uploading.
 */
export function useProductUpload() {
  const [uploads, setUploads] = useState<ProductUpload[]>([]);
  const nextId = useRef(0);
  const running = useRef(new Set<AbortController>());

  useEffect(() => {
    const controllers = running.current;
    return () => {
      for (const controller of controllers) controller.abort();
    };
  }, []);

  const uploadOne = useCallback(async (file: File) => {
    const id = nextId.current++;
    const controller = new AbortController();
    running.current.add(controller);
    const change = (percent: number) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, percent } : u)));
    setUploads((all) => [...all, { id, name: file.name, percent: 0 }]);
    try {
      const asset = await uploadToLibrary(file, { onProgress: change, signal: controller.signal });
      projectController()?.addProductAssets([toProjectAsset(asset)]);
    } catch {
      // Already said by the upload or the API client (a file refused says why); a cancelled upload says nothing.
    } finally {
      running.current.delete(controller);
      setUploads((all) => all.filter((u) => u.id !== id));
    }
  }, []);

  const upload = useCallback((files: readonly File[]) => files.forEach(uploadOne), [uploadOne]);
  return { uploads, upload };
}
