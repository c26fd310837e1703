// /rental-application.pdf, answered before the page pipeline (which buffers what it sends): the
// company's own PDF when one was uploaded on the site settings page, streamed from the disk or
// the bucket, else the fillable form generated from the company content (docs/behaviour.md §15,
// §18). Revalidated on every request (ETag, Last-Modified), so a new form is seen at once.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type express from "express";
import type { ImageStore } from "~/features/images/index.server";
import { buildApplicationPdf, getSiteContent } from "~/features/site-settings/index.server";
import type { Db } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { type SendableFile, sendStored } from "./send-stored";

export const APPLICATION_PDF_PATH = "/rental-application.pdf";

const HEADERS = {
  "Content-Disposition": 'inline; filename="rental-application.pdf"',
  "Cache-Control": "public, no-cache",
};

interface Generated {
  bytes: Buffer;
  etag: string;
  made: Date;
}

export function applicationPdf(options: {
  db: Db;
  images: ImageStore;
  /** Makes the form (tests pass one that fails). */
  build?: typeof buildApplicationPdf;
}): express.RequestHandler {
  const { db, images, build = buildApplicationPdf } = options;
  // The generated form changes only with the content: made once per content. A generation that
  // failed is forgotten at once, so the next request tries again instead of failing for everyone.
  let generated: { key: string; made: Promise<Generated> } | undefined;
  const generate = (content: Parameters<typeof buildApplicationPdf>[0]) => {
    const key = JSON.stringify(content);
    if (generated?.key !== key) {
      const made = build(content).then((pdf) => {
        const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
        return { bytes, etag: `"${digest(bytes)}"`, made: new Date() };
      });
      const entry = { key, made };
      generated = entry;
      made.catch(() => {
        if (generated === entry) generated = undefined;
      });
    }
    return generated.made;
  };

  return (req, res, next) => {
    // Express matches routes whatever their case and trailing slash: one URL, as for pages.
    if (req.path !== APPLICATION_PDF_PATH) {
      res.redirect(308, APPLICATION_PDF_PATH);
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.status(405).set("Allow", "GET, HEAD").type("text/plain").send("Method Not Allowed");
      return;
    }
    (async () => {
      const content = await getSiteContent(db);
      if (content.applicationPdf) {
        const stored = await images.open(content.applicationPdf);
        if (stored) {
          const file: SendableFile = {
            ...stored,
            contentType: "application/pdf",
            // A site file's name never changes content: its URL is a strong validator.
            etag: stored.etag ?? `"${digest(content.applicationPdf)}"`,
          };
          return sendStored(req, res, file, HEADERS);
        }
        log().warn(`The uploaded application PDF ${content.applicationPdf} is missing`);
      }
      const form = await generate(content);
      return sendStored(
        req,
        res,
        {
          size: form.bytes.length,
          modified: form.made,
          etag: form.etag,
          contentType: "application/pdf",
          body: (range) =>
            Readable.from([range ? form.bytes.subarray(range.start, range.end + 1) : form.bytes]),
        },
        HEADERS,
      );
    })().catch(next);
  };
}

function digest(data: string | Buffer): string {
  return createHash("sha1").update(data).digest("base64url").slice(0, 27);
}
