// The product's name on pages of each failure class seen on real shops (issue "Link analysis on real shops"): each
// fixture is written here, in several languages and encodings, and reproduces its class, never a particular page.
import { describe, expect, it } from 'vitest';
import { decodePage } from '../../src/modules/link-video/analysis/decode.js';
import { extractProduct } from '../../src/modules/link-video/analysis/extract.js';
import { cleanName } from '../../src/modules/link-video/analysis/name.js';
import { CAPTURED_PAGE_TYPE } from '../../src/modules/link-video/analysis/pageSource.js';

const PICTURE = '<img src="https://cdn.shop.example/p/main-photo.jpg" width="800" height="800">';
const jsonLd = (name: string) =>
  `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name, image: 'https://cdn.shop.example/p/main.jpg' })}</script>`;
const html = (head: string, body = '') => `<!doctype html><html><head>${head}</head><body>${body}${PICTURE}</body></html>`;

/** windows-1251 bytes of Russian text (А–я are 0xC0–0xFF in order), the rest ASCII. */
function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const code = ch.charCodeAt(0);
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      if (code < 0x80) return code;
      throw new Error(`no windows-1251 byte for ${ch}`);
    }),
  );
}

describe('pages decoded as a browser would', () => {
  it('reads a captured page as the UTF-8 it is stored in, without a <meta charset>', () => {
    const page = Buffer.from(html('<title>商店</title>', '<h1>i3Fresh 爱上新鲜 保温杯</h1>'), 'utf8');
    expect(extractProduct(page, 'https://shop.example.tw/item/1', CAPTURED_PAGE_TYPE).name).toBe('i3Fresh 爱上新鲜 保温杯');
  });

  it('reads UTF-8 bytes served with no charset anywhere as UTF-8, not windows-1252', () => {
    for (const name of ['Camiseta Básica Algodão', 'Sac à dos Randonnée', 'Термос стальной 1 л', '女士高腰修身牛仔裤']) {
      const page = Buffer.from(html(`<title>${name}</title>`, `<h1>${name}</h1>`), 'utf8');
      expect(extractProduct(page, 'https://shop.example/p', undefined).name).toBe(name);
    }
  });

  it('finds a <meta charset> that comes after the first 1024 bytes', () => {
    const filler = '<meta name="keywords" content="termos, garrafa, inox">'.repeat(40);
    const page = cp1251(html(`${filler}<meta charset="windows-1251"><title>Термос</title>`, '<h1>Термос стальной</h1>'));
    expect(page.indexOf('charset=')).toBeGreaterThan(1024);
    expect(extractProduct(page, 'https://shop.example.ru/p', undefined).name).toBe('Термос стальной');
  });

  it('follows the transport charset, then a byte order mark over it, and bytes that are not UTF-8 as windows-1252', () => {
    expect(decodePage(cp1251('Термос'), 'text/html; charset=windows-1251')).toBe('Термос');
    expect(decodePage(Buffer.from('\uFEFFCafé', 'utf8'), 'text/html; charset=windows-1252')).toBe('Café');
    expect(decodePage(Buffer.from([0x43, 0x61, 0x66, 0xe9]), undefined)).toBe('Café');
  });

  it('drops the control characters a page holds by mistake, so its name and text can be kept (decision "Control characters refused")', () => {
    const page = Buffer.from(html(`<title>Garrafa\u0000 térmica</title>`, '<h1>Garrafa\u0000 térmica\u001b 500\u000bml</h1>'), 'utf8');
    const text = decodePage(page, 'text/html; charset=utf-8');
    expect(['\u0000', '\u000b', '\u001b'].filter((control) => text.includes(control))).toEqual([]);
    expect(extractProduct(page, 'https://shop.example.br/p/1', 'text/html; charset=utf-8').name).toBe('Garrafa térmica 500ml');
  });
});

describe('the name a person sees', () => {
  it("leaves out a heading's hidden label, in any language (eBay's microdata name on its heading)", () => {
    for (const [label, title] of [
      ['Details about', 'Apple iPhone 15 Pro 256GB Natural Titanium'],
      ['Dettagli su', 'Borsa in pelle da donna nera'],
    ] as const) {
      const page = html(
        `<title>${title} | eBay</title>`,
        `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name"><span class="g-hdn">${label}&nbsp;</span>${title}<a class="u-hidden" href="#">- mostra il titolo originale</a></h1>${PICTURE.replace('<img', '<img itemprop="image"')}</div>`,
      );
      expect(extractProduct(page, 'https://www.ebay.it/itm/1').name).toBe(title);
    }
  });

  it('takes no icon glyph, button or screen-reader price from a heading', () => {
    const page = html(
      '<title>Classificados</title>',
      '<h1><i class="icon-star"></i>\uE001 Apartamento 2 quartos no centro <button>Log In needed</button><span class="sr-only">R$ 1.200</span></h1>',
    );
    expect(extractProduct(page, 'https://classificados.example.br/a/1').name).toBe('Apartamento 2 quartos no centro');
  });

  it('prefers the link preview title when the heading is a label of the page', () => {
    const page = html('<meta property="og:title" content="Nikon 50mm f/1.8 Lens">', '<h1>Details about</h1>');
    expect(extractProduct(page, 'https://shop.example/p').name).toBe('Nikon 50mm f/1.8 Lens');
  });
});

describe('names cleaned of what the page adds', () => {
  it('decodes entities in structured data, even encoded twice', () => {
    for (const [written, name] of [
      ['Black &amp;amp; Silver Watch', 'Black & Silver Watch'],
      ['11&quot; iPad Case', '11" iPad Case'],
      ['Blusa Elo&iacute;sa', 'Blusa Eloísa'],
      ['Caf&#233; Cup &#x26; Saucer', 'Café Cup & Saucer'],
    ] as [string, string][]) {
      expect(extractProduct(html(jsonLd(written)), 'https://shop.example/p').name).toBe(name);
    }
  });

  it("cuts the site's name and marketing tails, and picks the heading a title agrees with", () => {
    const cases: [string, string, string][] = [
      [
        '<meta property="og:title" content="Cordless Drill 18V - Buy Cordless Drill 18V Product on Alibaba.com"><title>Cordless Drill 18V - Buy Cordless Drill 18V Product on Alibaba.com</title>',
        '<h1>Cordless Drill 18V</h1>',
        'https://www.alibaba.com/product-detail/drill_1.html',
      ],
      ['<meta property="og:title" content="Vintage Camera Lens | eBay">', '', 'https://www.ebay.com/itm/2'],
      ['<title>Entradas Concierto Rock - Santiago</title>', '<h1>Entradas Concierto Rock</h1>', 'https://tickets.example.cl/e/3'],
      [
        '<meta property="og:site_name" content="Loja Verde"><meta property="og:title" content="Vaso de Cerâmica | Loja Verde">',
        '<h1>Vaso de Cerâmica</h1>',
        'https://lojaverde.example.com.br/p/4',
      ],
      ['<title>無線耳機 降噪 - 官方旗舰店</title>', '<h1>無線耳機 降噪</h1>', 'https://shop.example.tw/p/5'],
    ];
    const expected = ['Cordless Drill 18V', 'Vintage Camera Lens', 'Entradas Concierto Rock', 'Vaso de Cerâmica', '無線耳機 降噪'];
    expect(cases.map(([head, body, url]) => extractProduct(html(head, body), url).name)).toEqual(expected);
  });

  it('drops a trailing label left without its value', () => {
    expect(extractProduct(html(jsonLd('מכונת קפה אספרסו דגם:')), 'https://shop.example.co.il/p').name).toBe('מכונת קפה אספרסו');
    expect(extractProduct(html(jsonLd('Cafeteira Elétrica Modelo:')), 'https://shop.example.com.br/p').name).toBe('Cafeteira Elétrica');
    expect(cleanName('保温杯 型号：', [])).toBe('保温杯');
  });

  it('keeps names that merely contain separators or words like "sale" inside them', () => {
    expect(extractProduct(html(jsonLd('T-Shirt - Blue / Size M')), 'https://shop.example/p').name).toBe('T-Shirt - Blue / Size M');
    expect(cleanName('Garage Sale Sign Kit', ['shop'])).toBe('Garage Sale Sign Kit');
  });
});

describe('a section heading is not the name (class 6)', () => {
  it("takes the service's name from the title or preview over a section heading, in several languages", () => {
    const cases: [string, string, string, string][] = [
      [
        '<title>Deep Tissue Massage | Serenity Spa</title>',
        '<h1>Our Services</h1>',
        'https://serenityspa.example/s/1',
        'Deep Tissue Massage',
      ],
      [
        '<meta property="og:title" content="Limpeza de Pele Profunda">',
        '<h1>Nossos Serviços</h1>',
        'https://clinica.example.com.br/s/2',
        'Limpeza de Pele Profunda',
      ],
      [
        '<meta property="og:site_name" content="美丽阁"><title>深层清洁面部护理 - 美丽阁</title>',
        '<h1>我们的服务</h1>',
        'https://meilige.example.cn/s/3',
        '深层清洁面部护理',
      ],
      ['<title>Corte y Peinado - Salón Luna</title>', '<h1>Contáctenos</h1>', 'https://salonluna.example.cl/s/4', 'Corte y Peinado'],
      [
        '<title>Reviews (128) | Vintage Desk Lamp | Lampworks</title>',
        '<h1>Reviews (128)</h1>',
        'https://lampworks.example/p/5',
        'Vintage Desk Lamp',
      ],
      ['<meta property="og:title" content="Avaliações">', '<h1>Avaliações</h1><h2>x</h2>', 'https://loja.example.pt/p/6', 'Avaliações'],
    ];
    expect(cases.map(([head, body, url]) => extractProduct(html(head, body), url).name)).toEqual(cases.map((c) => c[3]));
  });

  it('prefers any other candidate to structured data that names a section', () => {
    const page = html(`<meta property="og:title" content="Teak Garden Bench">${jsonLd('Product details')}`, '<h1>Teak Garden Bench</h1>');
    expect(extractProduct(page, 'https://garden.example/p/7').name).toBe('Teak Garden Bench');
  });

  it('keeps a name that starts with a word of the page’s controls, from structured data or a heading alone', () => {
    // A UI-word rule matched the first word: "Home Office Essentials Bundle" was analysed with an empty name.
    for (const name of ['Home Office Essentials Bundle', 'Cart Organizer Tray', 'Search Light 2000 LED', 'Menu Board A4']) {
      expect(extractProduct(html(jsonLd(name), `<h1>${name}</h1>`), 'https://shop.example/p').name).toBe(name);
      expect(extractProduct(html('', `<h1>${name}</h1>`), 'https://shop.example/p').name).toBe(name);
    }
    // A bare label is still no name: the preview title is.
    for (const label of ['Home', 'Cart', 'Search', 'Sign in', 'Menu ›']) {
      const page = html('<meta property="og:title" content="Walnut Desk Organizer">', `<h1>${label}</h1>`);
      expect(extractProduct(page, 'https://shop.example/p').name).toBe('Walnut Desk Organizer');
    }
  });

  it('keeps products whose names start with the words of a section', () => {
    for (const name of ['Contact Lens Case', 'Home Office Chair', 'Reviews of the Year 2025 Photo Book', 'Menu Board A4']) {
      expect(extractProduct(html(`<title>${name}</title>`, `<h1>${name}</h1>`), 'https://shop.example/p').name).toBe(name);
    }
  });
});
