import { allAssets } from './assets';
import { offerProblem } from './offer';
import { splitScript } from './script';
import type { Product, Project } from './types';

/**
 * Why the video cannot be generated yet, as a `link-to-video` message key, or null (spec "Validation rules"): it needs at
 * least one asset, a product name, a script when the user writes their own, and a price the offer card can show
 * when one is typed.
 */
export function productProblem(project: Project): string | null {
  const product = project.product;
  if (!product || allAssets(product).length === 0) return 'product.noAssets';
  if (!product.productName.trim()) return 'product.nameRequired';
  if (product.scriptSource === 'own' && splitScript(product.diyScriptContent).length === 0) return 'editor.scriptRequired';
  return offerProblem(product);
}

/** What a product entered by hand still lacks, as `link-to-video` message keys by field. */
export interface ManualProblems {
  name: string | null;
  pictures: string | null;
}

/**
 * What a product entered by hand lacks before it can go on (decision "Manual product entry"): a video needs a
 * product name and at least one picture or clip (link-video's `productName` and `fileIds`); null when nothing.
 */
export function manualProductProblems(product: Product): ManualProblems | null {
  const problems = {
    name: product.productName.trim() ? null : 'product.nameRequired',
    pictures: allAssets(product).length > 0 ? null : 'failed.pictureRequired',
  };
  return problems.name || problems.pictures ? problems : null;
}
