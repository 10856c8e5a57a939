import type {
  AssetOrigin,
  EditorConfig,
  ExportVideo,
  MediaImportReport,
  PreviewVideo,
  ProductFacts,
  ProductRating,
  ScriptContent,
  TaskStatus,
} from '@reelsmith/contract';
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
  /** The page's other facts (availability, features, materials, variants, language), as analysis found them. */
  productFacts: ProductFacts | null;
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

/**
 * The current project (spec "Entities"); its JSON is the draft. Its name is not in it: the project's summary query
 * holds it (decision "Server data in queries").
 */
export interface Project {
  projectId: string;
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
  /**
   * What the last analysis imported of the pictures and videos its page named, and why some could not be
   * (decision "Media import report"); null for a product entered by hand, or analysed before it was kept.
   */
  mediaImport: MediaImportReport | null;
  /**
   * The product being entered by hand after an analysis failed (decision "Manual product entry"): name, description
   * and pictures, kept in the draft until the user goes on with it and it becomes `product`.
   */
  manualProduct: Product | null;
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
  productFacts: null,
});

export function newProject(projectId: string, productLink: string): Project {
  return {
    projectId,
    draftUrl: null,
    productLink,
    editorConfig: {},
    taskId: null,
    taskPath: null,
    taskStatus: null,
    exportTaskIds: [],
    product: null,
    mediaImport: null,
    manualProduct: null,
    preview: null,
    exports: null,
    assetUrlTasks: [],
    editedScriptId: null,
  };
}

/** A task still to be waited for: submitted and not ended. */
export const isUnfinished = (status: TaskStatus | null): boolean =>
  status === 'SUBMITTED' || status === 'IN_PROGRESS' || status === 'NOT_START';
