// A shop on loopback for link to video: a product page with JSON-LD Product naming four real PNG pictures.
// The product fetches it only because OUTBOUND_ALLOW_HOSTS names its host:port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface ShopProduct {
  name: string;
  description: string;
  /** Plain colours, one picture each: distinct pictures, so none is dropped as a duplicate. */
  colours: [number, number, number][];
  /** How long the page takes to answer: a slow shop keeps the analysis running long enough to reload during it. */
  pageDelayMs?: number;
  /** The page's HTML made by the test itself (for markup of its own), given the pictures' URLs. */
  page?: (imageUrls: string[]) => string;
}

export interface Shop {
  /** host:port, for OUTBOUND_ALLOW_HOSTS. */
  host: string;
  productUrl: string;
  imageUrls: string[];
  close: () => Promise<void>;
}

const png = (width: number, height: number, [r, g, b]: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

function productPage({ name, description }: ShopProduct, imageUrls: string[]): string {
  const jsonLd = { '@context': 'https://schema.org', '@type': 'Product', name, description, image: imageUrls };
  return `<!doctype html><html lang="en"><head><title>${name} | Northwind Outfitters</title>
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head>
<body><h1>${name}</h1><p>${description}</p></body></html>`;
}

export async function openShop(product: ShopProduct): Promise<Shop> {
  const routes = new Map<string, { type: string; body: Buffer; delayMs?: number }>();
  const server: Server = createServer((req, res) => {
    const found = routes.get(req.url ?? '');
    if (!found) return res.writeHead(404).end('not here');
    setTimeout(() => {
      res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length }).end(found.body);
    }, found.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const imageUrls = product.colours.map((_, i) => `http://${host}/img/${i + 1}.png`);
  for (const [i, colour] of product.colours.entries()) {
    // Portrait pictures large enough to be taken for product shots rather than icons.
    routes.set(`/img/${i + 1}.png`, { type: 'image/png', body: await png(900, 1200, colour) });
  }
  routes.set('/product.html', {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(product.page ? product.page(imageUrls) : productPage(product, imageUrls)),
    delayMs: product.pageDelayMs,
  });
  return {
    host,
    productUrl: `http://${host}/product.html`,
    imageUrls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
