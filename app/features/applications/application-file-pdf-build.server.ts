// 'Download PDF' (docs/behaviour.md §32), built in the document worker only (docs/decisions/0073):
// the whole application as one PDF for the file: the household's status and every adult's answers,
// step by step, then each document (images on a page of their own, PDFs' pages appended). Text in the embedded Unicode fonts (any name prints).
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import {
  APPLICATION_STATUSES,
  APPLICATION_STEPS,
  DOCUMENT_KINDS,
  STEP_FIELDS,
} from "~/domain/rental-application";
import { embedTextFonts } from "~/shared/pdf-fonts.server";
import type { ApplicationRecord } from "./staff.server";

const PAGE: [number, number] = [612, 792];
const MARGIN = 50;
const LINE = 13;
/** Characters per line at 9 pt in Noto Sans, with room to spare. */
const WRAP = 95;

function wrap(text: string, width = WRAP): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = "";
      }
      line = line ? `${line} ${word}` : word;
      while (line.length > width) {
        lines.push(line.slice(0, width));
        line = line.slice(width);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A draft's answers are saved as typed ('Back' checks nothing): control characters print as spaces. */
const printable = (text: string) => text.replace(/\p{Cc}/gu, " ");

/** What the worker needs: the record, and each document's bytes by storage key. */
export interface FilePdfInput {
  record: ApplicationRecord;
  companyName: string;
  documents: Record<string, Uint8Array>;
}

/** Builds the PDF in the calling thread: only the document worker calls this. */
export async function buildApplicationFilePdfNow({
  record,
  companyName,
  documents,
}: FilePdfInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Rental application ${record.id} — ${companyName}`);
  pdf.setAuthor(companyName);
  const fonts = await embedTextFonts(pdf);
  let page: PDFPage = pdf.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const line = async (
    text: string,
    options: { size?: number; bold?: boolean; indent?: number } = {},
  ) => {
    if (y < MARGIN) {
      page = pdf.addPage(PAGE);
      y = PAGE[1] - MARGIN;
    }
    const size = options.size ?? 9;
    await fonts.draw(page, printable(text), {
      x: MARGIN + (options.indent ?? 0),
      y,
      size,
      ...(options.bold ? { bold: true } : {}),
      color: rgb(0.1, 0.1, 0.1),
    });
    y -= size > 9 ? size + 6 : LINE;
  };

  await line(companyName, { size: 16, bold: true });
  await line(`Rental application ${record.id}`, { size: 13 });
  await line(`For: ${record.listing.address ?? "no listing chosen"}`);
  await line(
    `Status: ${APPLICATION_STATUSES[record.status]} since ${record.statusAt.slice(0, 10)}`,
  );
  if (record.submittedAt) await line(`Submitted: ${record.submittedAt.slice(0, 10)}`);
  y -= LINE;

  for (const applicant of record.applicants) {
    const who = applicant.answers.fullName || `Adult ${applicant.position + 1}`;
    await line(applicant.position === 0 ? `Applicant: ${who}` : `Other adult: ${who}`, {
      size: 12,
      bold: true,
    });
    for (const step of APPLICATION_STEPS) {
      if (step.id === "documents" || step.id === "review") continue;
      const answered = STEP_FIELDS[step.id].filter((f) => (applicant.answers[f.name] ?? "").trim());
      if (answered.length === 0) continue;
      await line(step.title, { bold: true });
      for (const field of answered) {
        const [first = "", ...rest] = wrap(`${field.label}: ${applicant.answers[field.name]}`);
        await line(first, { indent: 10 });
        for (const more of rest) await line(more, { indent: 20 });
      }
    }
    if (applicant.documents.length > 0) {
      await line("Documents", { bold: true });
      for (const d of applicant.documents) {
        await line(
          `${DOCUMENT_KINDS[d.kind as keyof typeof DOCUMENT_KINDS] ?? d.kind}: ${d.name}`,
          {
            indent: 10,
          },
        );
      }
    }
    y -= LINE;
  }
  if (record.notes.trim()) {
    await line("Notes", { size: 12, bold: true });
    for (const l of wrap(record.notes)) await line(l, { indent: 10 });
  }

  // The documents themselves, after the answers.
  for (const applicant of record.applicants) {
    for (const d of applicant.documents) {
      const read = d.storageKey ? documents[d.storageKey] : undefined;
      if (!read) continue;
      // A copy with a buffer of its own: pdf-lib's JPEG reader reads `.buffer` from offset 0,
      // and a Buffer from the vault is a view into a larger one.
      const bytes = new Uint8Array(read);
      if (d.contentType === "application/pdf") {
        const source = await PDFDocument.load(bytes);
        for (const copied of await pdf.copyPages(source, source.getPageIndices()))
          pdf.addPage(copied);
        continue;
      }
      const image =
        d.contentType === "image/png" ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
      const sheet = pdf.addPage(PAGE);
      await fonts.draw(sheet, printable(`${applicant.answers.fullName ?? ""}: ${d.name}`), {
        x: MARGIN,
        y: PAGE[1] - MARGIN,
        size: 9,
      });
      const fit = image.scaleToFit(PAGE[0] - 2 * MARGIN, PAGE[1] - 3 * MARGIN);
      sheet.drawImage(image, { x: MARGIN, y: PAGE[1] - 2 * MARGIN - fit.height, ...fit });
    }
  }
  return pdf.save();
}
