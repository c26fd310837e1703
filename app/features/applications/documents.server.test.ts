// Application documents: the bytes decide the type, images lose their metadata, active or
// encrypted PDFs are refused, and what is stored is ciphertext that only the vault opens.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskBackend } from "~/features/images/index.server";
import { asHttpError } from "~/shared/http-error.server";
import { jpegWithGps } from "../../../tests/support/images";
import { pdfBomb } from "../../../tests/support/pdf-bomb";
import { checkDocument, DOCUMENT_ERRORS, DocumentVault } from "./documents.server";

async function pdf(withScript = false) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText("Pay stub: Ana Renter, 4200 a month", { x: 10, y: 100, size: 10 });
  if (withScript) {
    const action = doc.context.obj({ S: "JavaScript", JS: PDFString.of("app.alert(1)") });
    doc.catalog.set(PDFName.of("OpenAction"), doc.context.register(action));
  }
  return Buffer.from(await doc.save());
}

describe("checkDocument", () => {
  it("re-encodes a phone photo without its metadata", async () => {
    const { data, type } = await checkDocument(await jpegWithGps());
    expect(type).toBe("image/jpeg");
    const meta = await sharp(data).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.format).toBe("jpeg");
  });

  it("keeps a PNG a PNG, and takes a plain PDF as it is", async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    expect((await checkDocument(png)).type).toBe("image/png");
    const plain = await pdf();
    const checked = await checkDocument(plain);
    expect(checked.type).toBe("application/pdf");
    expect(checked.data.equals(plain)).toBe(true);
  });

  it("refuses other types, damaged files, active PDFs and files over 10 MB", async () => {
    const webp = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#fff" } })
      .webp()
      .toBuffer();
    await expect(checkDocument(webp)).rejects.toThrow(DOCUMENT_ERRORS.type);
    // A refusal is the server's one refusal type, whichever route it reaches.
    const refusal = asHttpError(await checkDocument(webp).catch((error: unknown) => error));
    expect(refusal).toMatchObject({ status: 422, message: "Send a JPEG, PNG or PDF file." });
    await expect(
      checkDocument(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")),
    ).rejects.toThrow(DOCUMENT_ERRORS.type);
    await expect(checkDocument(Buffer.from("%PDF-1.7\nnot really"))).rejects.toThrow(
      DOCUMENT_ERRORS.damaged,
    );
    await expect(checkDocument(await pdf(true))).rejects.toThrow(DOCUMENT_ERRORS.active);
    const big = Buffer.concat([await pdf(), Buffer.alloc(10 * 1024 * 1024)]);
    await expect(checkDocument(big)).rejects.toThrow(DOCUMENT_ERRORS.tooBig);
    await expect(checkDocument(Buffer.alloc(0))).rejects.toThrow(DOCUMENT_ERRORS.damaged);
  });
});

/** A one-page PDF with `extra` set on its catalog (or, with `onPage`, on its page). */
async function pdfWith(extra: Record<string, unknown>, onPage = false) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText("Bank statement", { x: 10, y: 100, size: 10 });
  const target = onPage ? page.node : doc.catalog;
  for (const [name, value] of Object.entries(extra)) {
    target.set(PDFName.of(name), doc.context.register(doc.context.obj(value as never)));
  }
  return Buffer.from(await doc.save());
}

describe("checkDocument: only what a scanned document needs", () => {
  it("wants the PDF, JPEG or PNG signature at offset 0", async () => {
    const html = Buffer.from("<html><!-- %PDF-1.7 --><script>alert(1)</script></html>");
    await expect(checkDocument(html)).rejects.toThrow(DOCUMENT_ERRORS.type);
    const shifted = Buffer.concat([Buffer.from("   \n"), await pdf()]);
    await expect(checkDocument(shifted)).rejects.toThrow(DOCUMENT_ERRORS.type);
  });

  it("refuses open actions, event actions, forms, remote links and form submission", async () => {
    const cases = [
      { OpenAction: { S: "GoToR", F: PDFString.of("\\\\evil.example\\share\\x.pdf") } },
      { OpenAction: { S: "URI", URI: PDFString.of("https://evil.example/") } },
      { AcroForm: { Fields: [], XFA: PDFString.of("<xdp:xdp/>") } },
      { AA: { O: { S: "SubmitForm", F: PDFString.of("https://evil.example/") } } },
    ];
    for (const extra of cases) {
      await expect(
        checkDocument(await pdfWith(extra)),
        JSON.stringify(Object.keys(extra)),
      ).rejects.toThrow(DOCUMENT_ERRORS.active);
    }
    const link = {
      Annots: [
        {
          Type: "Annot",
          Subtype: "Link",
          Rect: [0, 0, 10, 10],
          A: { S: "Launch", F: PDFString.of("cmd.exe") },
        },
      ],
    };
    await expect(checkDocument(await pdfWith(link, true))).rejects.toThrow(DOCUMENT_ERRORS.active);
  });

  it("refuses a PDF bomb in a worker, the main thread free meanwhile", async () => {
    const bomb = await pdfBomb();
    let lag = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      lag = Math.max(lag, now - last - 10);
      last = now;
    }, 10);
    try {
      await expect(checkDocument(bomb)).rejects.toThrow(DOCUMENT_ERRORS.tooComplex);
    } finally {
      clearInterval(tick);
    }
    // pdf-lib on the main thread held it for seconds; a busy shared machine adds some of its own.
    expect(lag).toBeLessThan(500);
  }, 120_000);
});

describe("DocumentVault", () => {
  let root = "";
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "vault-"));
  });
  afterAll(async () => fs.rm(root, { recursive: true, force: true }));

  it("stores ciphertext under applications/, reads it back, and removes it", async () => {
    const key = randomBytes(32);
    const vault = new DocumentVault(new DiskBackend(root, root), key);
    const plain = await pdf();
    const storageKey = await vault.store(7, plain);
    expect(storageKey).toMatch(/^applications\/7\/[0-9a-f-]{36}$/);
    const stored = await fs.readFile(path.join(root, ...storageKey.split("/")));
    expect(stored.includes(Buffer.from("%PDF"))).toBe(false);
    expect(stored.includes(Buffer.from("Ana Renter"))).toBe(false);
    expect((await vault.read(storageKey))?.equals(plain)).toBe(true);
    // Another key, or the same bytes under another name, open nothing.
    await expect(
      new DocumentVault(new DiskBackend(root, root), randomBytes(32)).read(storageKey),
    ).rejects.toThrow();
    const moved = "applications/8/00000000-0000-0000-0000-000000000000";
    await fs.mkdir(path.join(root, "applications", "8"), { recursive: true });
    await fs.copyFile(
      path.join(root, ...storageKey.split("/")),
      path.join(root, ...moved.split("/")),
    );
    await expect(vault.read(moved)).rejects.toThrow();
    await vault.remove([storageKey]);
    expect(await vault.read(storageKey)).toBeNull();
  });
});
