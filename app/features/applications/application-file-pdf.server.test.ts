// 'Download PDF': every adult's answers as text a viewer can copy (any script prints), then each
// document (an image on a page of its own, a PDF's pages appended).
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskBackend } from "~/features/images/index.server";
import { buildApplicationFilePdf } from "./application-file-pdf.server";
import { DocumentVault } from "./documents.server";
import type { ApplicationRecord } from "./staff.server";

async function pagesText(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const { items } = await (await doc.getPage(i)).getTextContent();
    texts.push(
      items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""),
    );
  }
  await doc.destroy();
  return texts;
}

describe("the application as one PDF", () => {
  let root = "";
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "file-pdf-"));
  });
  afterAll(async () => fs.rm(root, { recursive: true, force: true }));

  it("prints every answer and appends the documents", async () => {
    const vault = new DocumentVault(new DiskBackend(root, root), randomBytes(32));
    const stub = await PDFDocument.create();
    stub.addPage([300, 200]).drawText("Pay stub page one");
    stub.addPage([300, 200]).drawText("Pay stub page two");
    const stubKey = await vault.store(1, Buffer.from(await stub.save()));
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#09c" } })
      .png()
      .toBuffer();
    const idKey = await vault.store(1, png);
    // (A JPEG too: pdf-lib's JPEG reader once read past a Buffer's view, "SOI not found".)
    const jpeg = await sharp({ create: { width: 30, height: 40, channels: 3, background: "#c90" } })
      .jpeg()
      .toBuffer();
    const paySlipKey = await vault.store(1, jpeg);
    const doc = (
      id: number,
      kind: string,
      name: string,
      contentType: string,
      storageKey: string,
    ) => ({
      id,
      kind,
      name,
      contentType,
      bytes: 1,
      storageKey,
    });
    const record: ApplicationRecord = {
      id: 1,
      status: "under-review",
      statusAt: "2026-11-20T10:00:00.000Z",
      submittedAt: "2026-11-19T10:00:00.000Z",
      listing: { collection: "properties", id: "9-main-st", address: "9 Main St" },
      notes: "Called the landlord.",
      events: [],
      applicants: [
        {
          position: 0,
          step: "review",
          completedAt: "2026-11-19T10:00:00.000Z",
          answers: { fullName: "Zoë Łódź", monthlyIncome: "4200", employer: "東京 Hardware" },
          documents: [
            doc(1, "id", "licence.png", "image/png", idKey),
            doc(2, "income", "stub.pdf", "application/pdf", stubKey),
          ],
        },
        {
          position: 2,
          step: "review",
          completedAt: "2026-11-19T11:00:00.000Z",
          answers: { fullName: "Cy Renter" },
          documents: [doc(3, "income", "slip.jpg", "image/jpeg", paySlipKey)],
        },
        {
          position: 1,
          step: "employment",
          completedAt: null,
          answers: { fullName: "Ben Renter", email: "ben@example.com" },
          documents: [],
        },
      ],
    };
    const texts = await pagesText(await buildApplicationFilePdf(record, vault, "Test Leasing"));
    const first = texts[0] ?? "";
    for (const expected of [
      "Rental application 1",
      "For: 9 Main St",
      "Status: Under review since 2026-11-20",
      "Applicant: Zoë Łódź",
      "Monthly income: 4200",
      "Employer: 東京 Hardware",
      "Other adult: Ben Renter",
      "E-mail: ben@example.com",
      "Photo ID: licence.png",
      "Proof of income: stub.pdf",
      "Called the landlord.",
    ]) {
      expect(first).toContain(expected);
    }
    // The answers, the image's page, the stub's two pages, then the other adult's JPEG.
    expect(texts).toHaveLength(5);
    expect(texts[1]).toContain("Zoë Łódź: licence.png");
    expect(texts[2]).toContain("Pay stub page one");
    expect(texts[3]).toContain("Pay stub page two");
    expect(texts[4]).toContain("Cy Renter: slip.jpg");
  });
});
