import sharp from 'sharp';
import type { PrintedImage, PrintedImages } from './paper.print';

/**
 * libvips works in the API's process: one thread for it, and no cache of decoded images kept between exports (an
 * image is converted once per export, then let go).
 */
sharp.concurrency(1);
sharp.cache(false);

/** The images a printed paper embeds as they are: the types both formats take. */
export const EMBEDDED_TYPES = ['image/png', 'image/jpeg'];
/** The images it embeds converted to PNG (a GIF's first frame), as neither Word nor the PDF library takes them. */
export const CONVERTED_TYPES = ['image/gif', 'image/webp'];
/**
 * The most pixels a converted image may have (a 24-megapixel photo fits): a small file of a huge image is refused
 * before it is decoded, never filling the process' memory.
 */
const MAX_INPUT_PIXELS = 5000 * 5000;
/** The longest side of a converted image: beyond it a printed image gains nothing (an A4 page at 250 dpi or so). */
const MAX_SIDE = 2000;

/**
 * A GIF (its first frame) or a WebP as a PNG a Word document and a PDF embed; undefined when it cannot be decoded (a
 * broken or mislabelled file, one too large), which the paper names by a line saying to see it online.
 */
export async function toEmbedded(data: Buffer, mime: string): Promise<{ data: Buffer; mime: string } | undefined> {
  if (EMBEDDED_TYPES.includes(mime)) return { data, mime };
  if (!CONVERTED_TYPES.includes(mime)) return undefined;
  try {
    const png = await sharp(data, { pages: 1, page: 0, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .timeout({ seconds: 20 })
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return { data: png, mime: 'image/png' };
  } catch {
    return undefined;
  }
}

/**
 * What an export reads of a paper's images: PNG and JPEG as they are, GIF and WebP converted; each stored file within
 * 5 MB, all that is embedded (the converted bytes) within 40 MB.
 */
export const EMBEDDED_LIMITS = {
  types: [...EMBEDDED_TYPES, ...CONVERTED_TYPES],
  maxEach: 5 * 1024 * 1024,
  maxTotal: 40 * 1024 * 1024,
  convert: { types: CONVERTED_TYPES, to: toEmbedded },
};

/**
 * The files read for a paper as images a format embeds, each with its size in pixels as libvips reads it from the
 * header (nothing decoded); a file whose size cannot be read is left out.
 */
export async function printedImages(files: Map<string, { data: Buffer; mime: string }>): Promise<PrintedImages> {
  const out: PrintedImages = new Map();
  for (const [id, { data, mime }] of files) {
    const { width, height } = await sharp(data)
      .metadata()
      .catch(() => ({ width: 0, height: 0 }));
    if (width > 0 && height > 0) out.set(id, { data, mime, width, height } satisfies PrintedImage);
  }
  return out;
}

/** An image's size on the page, in points: its own (at 96 dpi) fitted within `maxWidth` and `maxHeight`. */
export function fitted(image: PrintedImage, maxWidth: number, maxHeight: number) {
  const width = (image.width * 72) / 96;
  const height = (image.height * 72) / 96;
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}
