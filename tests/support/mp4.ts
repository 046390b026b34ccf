/**
 * A minimal MP4 of one video track that lasts `seconds` (no frames: what a container parser reads is the movie
 * header's timescale and duration), for the tests of media processing. Boxes as ISO/IEC 14496-12 lays them out.
 */
export function tinyMp4(seconds: number): Buffer {
  const timescale = 1000;
  const duration = Math.round(seconds * timescale);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n);
    return b;
  };
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);
  };
  const full = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
    box(type, u32((version << 24) | flags), ...parts);
  const matrix = Buffer.concat([0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].map(u32));

  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'latin1'));
  const mvhd = full(
    'mvhd',
    0,
    0,
    u32(0),
    u32(0),
    u32(timescale),
    u32(duration),
    u32(0x00010000),
    u16(0x0100),
    Buffer.alloc(10),
    matrix,
    Buffer.alloc(24),
    u32(2),
  );
  const tkhd = full(
    'tkhd',
    0,
    3,
    u32(0),
    u32(0),
    u32(1),
    u32(0),
    u32(duration),
    Buffer.alloc(8),
    u16(0),
    u16(0),
    u16(0),
    u16(0),
    matrix,
    u32(320 << 16),
    u32(240 << 16),
  );
  const mdhd = full('mdhd', 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u16(0x55c4), u16(0));
  const hdlr = full('hdlr', 0, 0, u32(0), Buffer.from('vide', 'latin1'), Buffer.alloc(12), Buffer.from('Video\0'));
  const dinf = box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1)));
  const stbl = box(
    'stbl',
    full('stsd', 0, 0, u32(0)),
    full('stts', 0, 0, u32(0)),
    full('stsc', 0, 0, u32(0)),
    full('stsz', 0, 0, u32(0), u32(0)),
    full('stco', 0, 0, u32(0)),
  );
  const minf = box('minf', full('vmhd', 0, 1, u16(0), Buffer.alloc(6)), dinf, stbl);
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
  return Buffer.concat([ftyp, moov, box('mdat', Buffer.alloc(16))]);
}
