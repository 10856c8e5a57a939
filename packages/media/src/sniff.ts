import { fileTypeFromFile } from 'file-type';

export interface Sniffed {
  /** file-type's extension, e.g. jpg, png, webp, mp4, mov, webm, pdf. */
  ext: string;
  mime: string;
}

/** What a file is by its first bytes (its magic numbers), whatever it is called; undefined when unknown (text, scripts). */
export async function sniff(file: string): Promise<Sniffed | undefined> {
  const found = await fileTypeFromFile(file);
  return found && { ext: found.ext, mime: found.mime };
}
