// The life of a browser test file: the product started as an operator would, one Chromium on it, both
// stopped after the file's last test, whatever happened.
import { afterAll, beforeAll } from 'vitest';
import { type Browser, openBrowser } from './browser.js';
import { type Product, startProduct } from './product.js';

export interface Running {
  product: Product;
  browser: Browser;
}

/**
 * Registers the hooks and answers the running pair, filled in before the first test. `env` is read when the
 * product starts, so it may name things an earlier hook started (a fixture server's port).
 */
export function productInBrowser(env: () => Record<string, string> = () => ({})): Running {
  const running = {} as Running;
  beforeAll(async () => {
    running.product = await startProduct(env());
    running.browser = await openBrowser();
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.product?.stop();
  });
  return running;
}
