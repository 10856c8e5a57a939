/**
 * A page's bytes as text, decoded as a browser would (decision "Pages decoded as browsers do"): a byte order mark,
 * then the transport's charset, then a `<meta charset>` (or `http-equiv` Content-Type) anywhere in the first
 * 64 KB, then UTF-8 when the bytes are valid UTF-8, and only then windows-1252. Browsers look for the meta tag in
 * the first 1024 bytes only, but shops with long heads put it later, and a page captured by the extension has no
 * transport header at all; reading those as windows-1252 gave names like "i3Fresh æ„›ä¸Š…".
 */
import { TextDecoder } from 'node:util';
import { withoutControlCharacters } from '@reelsmith/contract';

const META_SCAN_BYTES = 64 * 1024;
const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w:.-]+)/i;

const BOMS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xfe, 0xff], 'utf-16be'],
  [[0xff, 0xfe], 'utf-16le'],
];

export function decodePage(body: Buffer, contentType?: string): string {
  // A NUL or another control character in a page is a mistake of the page, never text worth keeping, and
  // PostgreSQL refuses a NUL in text (decision "Control characters refused").
  return withoutControlCharacters(decodeText(body, contentType));
}

function decodeText(body: Buffer, contentType?: string): string {
  const bom = BOMS.find(([bytes]) => bytes.every((byte, i) => body[i] === byte));
  if (bom) return decoderFor(bom[1])?.decode(body) ?? body.toString('utf8');
  const declared = [charsetOf(contentType), metaCharset(body)].map(asciiCompatible).find((label) => decoderFor(label));
  const decoder = declared ? decoderFor(declared) : undefined;
  if (decoder) return decoder.decode(body);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
}

/** The charset of a Content-Type header ("text/html; charset=GBK"). */
export const charsetOf = (contentType: string | undefined) => /charset=["']?([\w:.-]+)/i.exec(contentType ?? '')?.[1];

function metaCharset(body: Buffer): string | undefined {
  // Latin-1 keeps every byte one character, so the tag is found whatever the page's encoding.
  return META_CHARSET.exec(body.subarray(0, META_SCAN_BYTES).toString('latin1'))?.[1];
}

/** A page that says UTF-16 in its own ASCII text cannot be UTF-16: browsers read it as UTF-8 (WHATWG "prescan"). */
const asciiCompatible = (label: string | undefined) => (label && /^utf-?16/i.test(label) ? 'utf-8' : label);

function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    // A label no decoder knows ("utf8mb4", a typo): the next clue decides.
    return undefined;
  }
}
