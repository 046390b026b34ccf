import type { PrintedImage, PrintedImages } from './paper.print';

/** The images a printed paper embeds: the types both formats take, each and all of them bounded in size. */
export const EMBEDDED_TYPES = ['image/png', 'image/jpeg'];
export const EMBEDDED_LIMITS = { types: EMBEDDED_TYPES, maxEach: 5 * 1024 * 1024, maxTotal: 40 * 1024 * 1024 };

/** The size in pixels of a PNG or JPEG, read from its header; undefined when it is neither (or broken). */
export function imageSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length > 24 && data.readUInt32BE(0) === 0x89504e47)
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  if (data.length > 4 && data[0] === 0xff && data[1] === 0xd8) {
    let at = 2;
    while (at + 9 < data.length) {
      if (data[at] !== 0xff) return undefined;
      const marker = data[at + 1] as number;
      const length = data.readUInt16BE(at + 2);
      // a start of frame (not DHT, JPG or DAC) holds the height and the width
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
      at += 2 + length;
    }
  }
  return undefined;
}

/** The files read for a paper as images a format embeds (those whose size cannot be read are left out). */
export function printedImages(files: Map<string, { data: Buffer; mime: string }>): PrintedImages {
  const out: PrintedImages = new Map();
  for (const [id, { data, mime }] of files) {
    const size = imageSize(data);
    if (size && size.width > 0 && size.height > 0) out.set(id, { data, mime, ...size } satisfies PrintedImage);
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
