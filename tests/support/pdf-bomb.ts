// A PDF bomb for tests: a small, well-formed PDF (one page) whose one FlateDecode object stream
// inflates to about `inflatedBytes` (1 GiB by default) of zeros. 1 GiB deflates to about 1 MB;
// it is deflated in chunks, so making it never holds the inflated bytes in memory.
import { once } from "node:events";
import { constants, createDeflate } from "node:zlib";

const cache = new Map<number, Promise<Buffer>>();

async function deflatedZeros(total: number): Promise<Buffer> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const header = Buffer.from("5 0 ", "latin1"); // the object stream's one entry: object 5 at 0
  deflate.write(header);
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  for (let left = total - header.length; left > 0; left -= chunk.length) {
    if (!deflate.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) {
      await once(deflate, "drain");
    }
  }
  deflate.end();
  await once(deflate, "end");
  return Buffer.concat(out);
}

/** The bomb's bytes (made once per size and kept for the test run). */
export function pdfBomb(inflatedBytes = 1024 * 1024 * 1024): Promise<Buffer> {
  let made = cache.get(inflatedBytes);
  if (!made) {
    made = deflatedZeros(inflatedBytes).then(assemble);
    cache.set(inflatedBytes, made);
  }
  return made;
}

function assemble(stream: Buffer): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: string | Buffer) => {
    const bytes = typeof part === "string" ? Buffer.from(part, "latin1") : part;
    parts.push(bytes);
    length += bytes.length;
  };
  add("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
  const object = (body: string | Buffer[]) => {
    offsets.push(length);
    const n = offsets.length;
    if (typeof body === "string") add(`${n} 0 obj\n${body}\nendobj\n`);
    else {
      add(`${n} 0 obj\n`);
      for (const b of body) add(b);
      add("\nendobj\n");
    }
  };
  object("<< /Type /Catalog /Pages 2 0 R >>");
  object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
  object([
    Buffer.from(
      `<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`,
      "latin1",
    ),
    stream,
    Buffer.from("\nendstream", "latin1"),
  ]);
  const xref = length;
  add(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) add(`${String(offset).padStart(10, "0")} 00000 n \n`);
  add(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
