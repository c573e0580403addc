/**
 * Writes the device app's PNG icons (public/icon-192.png, icon-512.png): the drawing of
 * public/icon.svg (a white phone on the primary blue) as plain pixels, encoded with zlib, so the
 * manifest has real PNGs without an image library. Run: node --import tsx apps/device/scripts/icons.ts
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BLUE = [0x0a, 0x4f, 0x9e];
const WHITE = [0xff, 0xff, 0xff];

/** The colour at (x, y) in the SVG's 64-unit square. */
function colour(x: number, y: number): number[] {
  const inBody = x >= 20 && x < 44 && y >= 10 && y < 54;
  const inScreen = x >= 23 && x < 41 && y >= 15 && y < 47;
  const inButton = (x - 32) ** 2 + (y - 50.5) ** 2 <= 1.8 ** 2;
  return inBody && !inScreen && !inButton ? WHITE : BLUE;
}

const table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function png(size: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const [r, g, b] = colour(((x + 0.5) * 64) / size, ((y + 0.5) * 64) / size);
      row.set([r!, g!, b!], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const size of [192, 512]) {
    writeFileSync(new URL(`../public/icon-${size}.png`, import.meta.url), png(size));
  }
}
