// The field app's icons, drawn here at build time as PNG (no binary in the repository): a green square
// with a white open book, in the sizes the web app manifest needs (docs/field-app.md).
import { crc32, deflateSync } from "node:zlib";

const GREEN = [0x0b, 0x5d, 0x3b];
const WHITE = [0xff, 0xff, 0xff];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Whether the pixel at (x, y) of a unit square belongs to the book: two pages with a spine between. */
function inBook(x: number, y: number): boolean {
  if (y < 0.28 || y > 0.72) return false;
  const fromSpine = Math.abs(x - 0.5);
  // Each page's top edge rises towards the spine a little, like an open book's.
  const top = 0.28 + 0.06 * (fromSpine / 0.3);
  return fromSpine > 0.015 && fromSpine < 0.3 && y >= top;
}

/** A square RGB PNG of `size` pixels. */
export function iconPng(size: number): Buffer {
  const row = 1 + size * 3;
  const raw = Buffer.alloc(row * size);
  for (let y = 0; y < size; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const colour = inBook((x + 0.5) / size, (y + 0.5) / size) ? WHITE : GREEN;
      raw.set(colour, y * row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
