import { describe, expect, it } from 'vitest';
import { BUTTON_HOST_ID, capturePage, pageHtml } from '../src/capture';

const NAME = 'Trailhead Merino Beanie';

/** The live document of this test's window, filled the way a shop's scripts would have drawn it. */
function render(html: string): Document {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  document.title = NAME;
  document.documentElement.innerHTML = html;
  return document;
}

describe('page capture', () => {
  it('keeps the rendered product and the data scripts, drops styles, external scripts, drawings and our button', () => {
    const doc = render(`<head><title>${NAME}</title><style>.x{color:red}</style><link rel="stylesheet" href="/a.css">
      <script src="https://cdn.example/app.js"></script>
      <script type="application/ld+json">{"@type":"Product","name":"${NAME}","image":"https://cdn.example/b.jpg"}</script>
      <script>var meta = {"product":{"id":1}};</script></head>
      <body><h1 id="productTitle">${NAME}</h1><svg><path d="M0 0"/></svg><iframe src="https://ads.example"></iframe>
      <img src="/img/beanie.jpg" width="900" height="1200"><div id="${BUTTON_HOST_ID}">Make a video</div></body>`);
    const capture = capturePage(doc);
    expect(capture.url).toBe(location.href);
    expect(capture.title).toBe(NAME);
    expect(capture.html.startsWith('<!doctype html>')).toBe(true);
    const parsed = new DOMParser().parseFromString(capture.html, 'text/html');
    expect(parsed.querySelector('#productTitle')?.textContent).toBe(NAME);
    expect(parsed.querySelector('script[type="application/ld+json"]')?.textContent).toContain(NAME);
    expect(parsed.querySelector('script:not([type])')?.textContent).toContain('var meta');
    for (const gone of ['style', 'link', 'script[src]', 'svg', 'iframe', `#${BUTTON_HOST_ID}`]) {
      expect(parsed.querySelector(gone), gone).toBeNull();
    }
    // Pictures point where the browser loaded them, whatever the page's base.
    expect(parsed.querySelector('img')?.getAttribute('src')).toBe(new URL('/img/beanie.jpg', location.href).href);
    expect(capture.images).toEqual(['https://cdn.example/b.jpg', new URL('/img/beanie.jpg', location.href).href]);
    expect(capture.mainImage).toBe('https://cdn.example/b.jpg');
  });

  it('keeps a page under the cap whole, inline code included', () => {
    const doc = render('<head><script>var meta = {"product":{"id":1}};</script></head><body><h1>x</h1></body>');
    expect(pageHtml(doc)).toContain('var meta');
  });

  it('does not change the page it captures', () => {
    const doc = render('<head><style>p{}</style></head><body><p>kept</p></body>');
    capturePage(doc);
    expect(doc.querySelector('style')).not.toBeNull();
  });

  it('drops inline code but keeps JSON data when the page would be over the cap', () => {
    const cap = 4096;
    const code = `var huge = "${'x'.repeat(cap)}";`;
    const doc =
      render(`<head><script>${code}</script><script type="application/ld+json">{"@type":"Product","name":"${NAME}"}</script></head>
      <body><h1>${NAME}</h1></body>`);
    const html = pageHtml(doc, cap);
    expect(new TextEncoder().encode(html).length).toBeLessThan(cap);
    expect(html).toContain(`"name":"${NAME}"`);
    expect(html).not.toContain('var huge');
  });
});
