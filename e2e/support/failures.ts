// A failed browser test's report says what the browser saw: each open page's address and visible text, a
// screenshot, and the journal of errors and failed calls. A failure under CI's load that does not happen on a
// developer's machine can then be read from the log instead of guessed at.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { openBrowsers } from './browser.js';

const TEXT_CHARS = 1500;

beforeEach(({ onTestFailed }) => {
  onTestFailed(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reelsmith-e2e-failure-'));
    for (const [b, browser] of openBrowsers().entries()) {
      const lines = [`── browser ${b + 1}`];
      for (const [p, page] of browser.context.pages().entries()) {
        const shot = join(dir, `browser${b + 1}-page${p + 1}.png`);
        // Each piece is best effort: a page that has crashed still lets the others be reported.
        await page.screenshot({ path: shot, timeout: 5_000 }).catch((error: Error) => lines.push(`screenshot: ${error.message}`));
        const text = await page
          .locator('body')
          .innerText({ timeout: 5_000 })
          .catch((error: Error) => `(no text: ${error.message})`);
        lines.push(`page ${p + 1}: ${page.url()} (screenshot ${shot})`, text.slice(0, TEXT_CHARS));
      }
      lines.push('journal:', ...browser.journal);
      console.error(lines.join('\n'));
    }
  });
});
