// Spec "Error catalogue"'s log collection: an error in the page reaches the operator's log as one structured JSON
// line with the request id and the user id, and nothing the user pasted.
import { describe, expect, it } from 'vitest';
import { visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { activeUser } from '../support/users.js';

const running = productInBrowser();

interface LogLine {
  msg?: string;
  reqId?: string;
  clientLog?: { kind: string; message: string; route: string; userId: string | null };
}

const clientLogs = (log: string): LogLine[] =>
  log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg === 'client log');

describe('client logs', () => {
  it('a script error in the page is logged by the server with the request id and the user, without the query', async () => {
    const { product, browser } = running;
    const { page } = browser;
    await activeUser(page, product, 'client-logs@example.com');
    await visit(page, product.base, '/dashboard/assets?note=SECRET-TOKEN');
    const userId = await page.evaluate(
      async () => (await (await fetch('/reelsmith/api/auth/session', { headers: { client: 'WEB' } })).json()).data.userId,
    );
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom from the browser test');
      });
    });
    const scriptErrors = () => clientLogs(product.log()).filter((line) => line.clientLog?.kind === 'error');
    await expect.poll(() => scriptErrors().length, { timeout: 15_000 }).toBe(1);
    const [line] = scriptErrors();
    expect(line?.clientLog).toMatchObject({ kind: 'error', route: '/dashboard/assets', userId });
    expect(line?.clientLog?.message).toContain('boom from the browser test');
    expect(line?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(product.log()).not.toContain('SECRET-TOKEN');
  });
});
