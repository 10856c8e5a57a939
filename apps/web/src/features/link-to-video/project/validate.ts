import { allAssets } from './assets';
import { offerProblem } from './offer';
import { splitScript } from './script';
import type { Project } from './types';

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
