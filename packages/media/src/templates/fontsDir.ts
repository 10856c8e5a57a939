/**
 * The folder libass is given (`fontsdir`) when the cards are drawn with the captions: libass finds a face by its
 * family name among the files of one folder, and the package's typefaces sit each in a folder of its own. The
 * captions' folder holds the bold sans (the default card face too); any other card face gets a folder of links
 * to both, made once per machine. Name the face an ad uses and only those two are linked: libass reads every
 * file of the folder into memory for each piece (10–15 MB each); without one, all the brand faces are.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { BRAND_FONT_FILES, type BrandFontFileId, brandFont } from '../brand/fonts.js';
import { captionFontsDir } from '../captions/font.js';

const made = new Map<BrandFontFileId | 'all', string>();

/** The `fontsdir` holding the captions' typeface and the card typeface `font` (every brand face without one). */
export function cardFontsDir(font?: BrandFontFileId): string {
  const known = made.get(font ?? 'all');
  if (known) return known;
  const captions = captionFontsDir();
  const faces = (font ? [font] : (Object.keys(BRAND_FONT_FILES) as BrandFontFileId[])).map((f) => brandFont(f).path);
  const extra = faces.filter((file) => dirname(file) !== captions);
  let dir = captions;
  if (extra.length) {
    const files = [
      ...readdirSync(captions)
        .filter((f) => /\.(ttf|otf)$/i.test(f))
        .map((f) => join(captions, f)),
      ...extra,
    ];
    // Named by the files it links: another install (another path) gets its own folder, never a stale one.
    const key = createHash('sha256').update(files.join('\0')).digest('hex').slice(0, 12);
    dir = join(tmpdir(), `reelsmith-fonts-${key}`);
    if (!files.every((f) => existsSync(join(dir, basename(f))))) {
      // Made aside and renamed into place, so a render running at the same time never sees half a folder.
      const partial = `${dir}.${randomUUID()}`;
      mkdirSync(partial);
      for (const file of files) symlinkSync(file, join(partial, basename(file)));
      try {
        renameSync(partial, dir);
      } catch (error) {
        rmSync(partial, { recursive: true, force: true });
        // Another process made it first: that folder is the same.
        if (!files.every((f) => existsSync(join(dir, basename(f))))) throw error;
      }
    }
  }
  made.set(font ?? 'all', dir);
  return dir;
}
