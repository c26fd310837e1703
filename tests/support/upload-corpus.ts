// Hostile and awkward uploads, generated (nothing binary is checked in). Each is either refused
// with a clear message or stored re-encoded (no metadata, no GPS, no foreign bytes).
import zlib from "node:zlib";
import sharp from "sharp";
import { jpegWithGps } from "./images";

export interface CorpusCase {
  name: string;
  fileName: string;
  bytes: () => Promise<Buffer>;
  /** The refusal's message, or "stored" when the upload is taken (re-encoded). */
  expect: RegExp | "stored";
}

const solid = (width: number, height: number, background = "#3a7bd5") =>
  sharp({ create: { width, height, channels: 3, background } });

/** Random pixels: a JPEG that compresses badly, so cutting it loses real image data. */
function noiseJpeg(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer) {
  let c = 0xffffffff;
  for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A well-formed PNG of any size (1-bit grey), pixel data all zero: tiny file, huge image. */
function png(width: number, height: number, rows: Buffer | null) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", rows ?? Buffer.alloc(0)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A JPEG with an HTML page in a comment segment, right after the start-of-image marker. */
async function htmlPolyglot() {
  const jpeg = await solid(64, 48).jpeg().toBuffer();
  const html = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");
  const comment = Buffer.alloc(4);
  comment.writeUInt16BE(0xfffe, 0);
  comment.writeUInt16BE(html.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), comment, html, jpeg.subarray(2)]);
}

export const POLYGLOT_MARKER = "<script>";

export const uploadCorpus: CorpusCase[] = [
  {
    name: "pixel flood (a 20000×20000 PNG header)",
    fileName: "flood.png",
    bytes: async () => png(20_000, 20_000, zlib.deflateSync(Buffer.alloc(16))),
    expect: /^The image has more than 50 million pixels\.$/,
  },
  {
    name: "decompression bomb (10000×8000 PNG of zeros, about 10 KB)",
    fileName: "bomb.png",
    bytes: async () =>
      png(10_000, 8_000, zlib.deflateSync(Buffer.alloc(8_000 * (1 + 10_000 / 8)), { level: 9 })),
    expect: /^The image has more than 50 million pixels\.$/,
  },
  {
    name: "JPEG/HTML polyglot",
    fileName: "page.jpg",
    bytes: htmlPolyglot,
    expect: "stored",
  },
  {
    name: "SVG with a script",
    fileName: "logo.jpg",
    bytes: async () =>
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><script>alert(1)</script><rect width="64" height="48"/></svg>',
      ),
    expect: /^SVG files are not accepted\. Send a photo: JPEG, PNG, WebP, AVIF, HEIC or GIF\.$/,
  },
  {
    name: "PDF named .jpg",
    fileName: "scan.jpg",
    bytes: async () => Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"),
    expect: /^The file is not an image this site can read\.$|^PDF files are not accepted/,
  },
  {
    name: "TIFF (a format libvips reads, not a web photo)",
    fileName: "scan.jpg",
    bytes: () => solid(64, 48).tiff().toBuffer(),
    expect: /^TIFF files are not accepted\. Send a photo: JPEG, PNG, WebP, AVIF, HEIC or GIF\.$/,
  },
  {
    name: "a non-image named .jpg",
    fileName: "holiday.jpg",
    bytes: async () => Buffer.from("this is a text file, not a photo\n".repeat(20)),
    expect: /^The file is not an image this site can read\.$/,
  },
  {
    name: "truncated JPEG",
    fileName: "cut.jpg",
    bytes: async () => {
      const whole = await noiseJpeg(320, 240);
      return whole.subarray(0, Math.floor(whole.length * 0.6));
    },
    expect: /^The image could not be decoded: the file is damaged or incomplete\.$/,
  },
  {
    name: "CMYK JPEG",
    fileName: "print.jpg",
    bytes: () => solid(64, 48).toColourspace("cmyk").jpeg().toBuffer(),
    expect: "stored",
  },
  {
    name: "16-bit PNG",
    fileName: "deep.png",
    bytes: () => solid(64, 48).toColourspace("rgb16").png().toBuffer(),
    expect: "stored",
  },
  {
    name: "huge EXIF block",
    fileName: "exif.jpg",
    bytes: () =>
      solid(64, 48)
        .withExif({ IFD0: { ImageDescription: "x".repeat(60_000), Make: "Bloat" } })
        .jpeg()
        .toBuffer(),
    expect: "stored",
  },
  {
    name: "GPS-tagged photo",
    fileName: "phone.jpg",
    bytes: () => jpegWithGps(64, 48),
    expect: "stored",
  },
  {
    name: "animated GIF (first frame kept)",
    fileName: "anim.gif",
    bytes: async () => {
      const frames = await Promise.all(
        ["#ff0000", "#00ff00", "#0000ff"].map((c) => solid(64, 48, c).png().toBuffer()),
      );
      return sharp(frames, { join: { animated: true } })
        .gif()
        .toBuffer();
    },
    expect: "stored",
  },
  {
    name: "AVIF",
    fileName: "photo.avif",
    bytes: () => solid(64, 48).avif({ effort: 0 }).toBuffer(),
    expect: "stored",
  },
];
