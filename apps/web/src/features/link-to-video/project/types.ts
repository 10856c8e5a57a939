import type { AssetOrigin, EditorConfig, ExportVideo, PreviewVideo, ProductRating, ScriptContent, TaskStatus } from '@reelsmith/contract';
import type { z } from 'zod';

/** The task kinds of the link-to-video flow (spec "States and transitions" taskPath). */
export type ProjectTaskPath = 'link-analysis' | 'link-video' | 'script-update' | 'export-video';

/** An asset item of the product (spec "Entities"): `resKey` is its stored key, null while it is only a link. */
export interface ProjectAsset {
  fileId: string;
  fileName: string;
  fileUrl: string;
  resKey: string | null;
  format: string | null;
  /**
   * Where the file came from, when known: a file picked from the library says whether the generation tools made
   * it (the export's AI-generated label follows it); links and pages are never generated.
   */
  origin?: z.infer<typeof AssetOrigin>;
}

/** Where the video's script comes from (spec "Screens and routes" screen 3); diyScript and diyScriptContent are derived from it. */
export type ScriptSource = 'description' | 'own' | 'ai';

export interface Product {
  productName: string;
  productDescription: string;
  productImages: ProjectAsset[];
  productVideos: ProjectAsset[];
  scriptSource: ScriptSource;
  /** The user's own script, kept while another source is chosen. */
  diyScriptContent: string;
  /**
   * The offer as typed (the offer card's price, the price before a sale, ISO 4217 currency) and the brand, for the
   * offer and end cards; checked by the contract's rules when sent (offer.ts). No price, no offer card.
   */
  productPrice: string;
  productListPrice: string;
  productCurrency: string;
  productBrand: string;
  /** The page's review summary, as analysis found it: the scripts' social proof, never typed by hand. */
  productRating: ProductRating | null;
}

/** An asset URL task (spec "Entities"): `taskId` is the fileId the import call answered, once submitted. */
export interface AssetUrlTask {
  fileId: string;
  taskId: string | null;
  taskStatus: TaskStatus;
}

export interface Preview {
  previewVideos: z.infer<typeof PreviewVideo>[];
  scriptContentList: z.infer<typeof ScriptContent>[];
}

export interface Exports {
  exportVideos: z.infer<typeof ExportVideo>[];
}

/** The current project (spec "Entities"); its JSON is the draft. */
export interface Project {
  projectId: string;
  projectName: string;
  draftUrl: string | null;
  productLink: string;
  editorConfig: z.input<typeof EditorConfig>;
  /** The page HTML the browser extension stored, analysed instead of fetching the link. */
  htmlResKey?: string;
  taskId: string | null;
  taskPath: ProjectTaskPath | null;
  taskStatus: TaskStatus | null;
  /** Export renders one task per selected preview; the project's taskId is the last of them. */
  exportTaskIds: string[];
  product: Product | null;
  preview: Preview | null;
  exports: Exports | null;
  assetUrlTasks: AssetUrlTask[];
  /** The scriptId of the currently edited video (spec "Entities"), one of the preview's. */
  editedScriptId: string | null;
}

export const emptyProduct = (): Product => ({
  productName: '',
  productDescription: '',
  productImages: [],
  productVideos: [],
  scriptSource: 'ai',
  diyScriptContent: '',
  productPrice: '',
  productListPrice: '',
  productCurrency: '',
  productBrand: '',
  productRating: null,
});

export function newProject(projectId: string, productLink: string, projectName = ''): Project {
  return {
    projectId,
    projectName,
    draftUrl: null,
    productLink,
    editorConfig: {},
    taskId: null,
    taskPath: null,
    taskStatus: null,
    exportTaskIds: [],
    product: null,
    preview: null,
    exports: null,
    assetUrlTasks: [],
    editedScriptId: null,
  };
}

/** A task still to be waited for: submitted and not ended. */
export const isUnfinished = (status: TaskStatus | null): boolean =>
  status === 'SUBMITTED' || status === 'IN_PROGRESS' || status === 'NOT_START';
