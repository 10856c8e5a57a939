import { allAssets } from './assets';
import { splitScript } from './script';
import type { Project } from './types';

/**
 * Why the video cannot be generated yet, as a `link-to-video` message key, or null (spec "Validation rules"): it needs at
 * least one asset, a product name, and a script when the user writes their own.
 */
export function productProblem(project: Project): string | null {
  const product = project.product;
  if (!product || allAssets(product).length === 0) return 'product.noAssets';
  if (!product.productName.trim()) return 'product.nameRequired';
  if (product.scriptSource === 'own' && splitScript(product.diyScriptContent).length === 0) return 'editor.scriptRequired';
  return null;
}
