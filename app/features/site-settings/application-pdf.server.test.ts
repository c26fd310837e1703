// The generated application form prints any company or contact name: the text drawn is read
// back from the PDF (pdf.js, the text a viewer would copy) and its fonts are embedded.

import { PDFDocument, PDFName } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { buildApplicationPdf } from "./application-pdf.server";

async function textOf(bytes: Uint8Array): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const page = await doc.getPage(1);
  const { items } = await page.getTextContent();
  await doc.destroy();
  // One line is several runs when it switches fonts: join runs, break lines.
  return items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
}

describe("the generated rental application", () => {
  const content = {
    ...company,
    name: "Łódź Żółć Leasing",
    contacts: [{ role: "Property Manager", name: "東京", email: "tokyo@example.com" }],
  };

  it("prints names outside Windows-1252 (Polish and Japanese) as they are", async () => {
    const text = await textOf(await buildApplicationPdf(content));
    expect(text).toContain("Łódź Żółć Leasing");
    expect(text).toContain("Questions? 東京, Property Manager: tokyo@example.com");
    expect(text).toContain("Rental Application");
  }, 30_000);

  it("embeds its fonts (subsets), so every viewer shows the same glyphs", async () => {
    const pdf = await PDFDocument.load(await buildApplicationPdf(content));
    const embedded = pdf.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter((object) => "get" in object && typeof object.get === "function")
      .map((dict) => (dict as unknown as { get(n: PDFName): unknown }).get(PDFName.of("FontName")))
      .filter(Boolean)
      .map(String);
    expect(embedded.some((name) => /\/NotoSans-Regular\b/.test(name))).toBe(true);
    expect(embedded.some((name) => /\/NotoSansJP-Regular\b/.test(name))).toBe(true);
    expect(embedded.some((name) => /\/NotoSans-Bold\b/.test(name))).toBe(true);
    // Each with its glyphs inside the file (FontFile2: TrueType, FontFile3: CFF).
    const files = pdf.context
      .enumerateIndirectObjects()
      .filter(([, object]) => "get" in object && typeof object.get === "function")
      .filter(([, dict]) => {
        const d = dict as unknown as { get(n: PDFName): unknown };
        return d.get(PDFName.of("FontFile2")) ?? d.get(PDFName.of("FontFile3"));
      });
    expect(files.length).toBe(3);
  }, 30_000);

  it("still makes the default form, a fillable one, in Latin text", async () => {
    const bytes = await buildApplicationPdf();
    expect(await textOf(bytes)).toContain(company.name);
    const form = (await PDFDocument.load(bytes)).getForm();
    expect(form.getTextField("applicant_name")).toBeTruthy();
  }, 30_000);
});
