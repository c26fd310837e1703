// An applicant's documents and answers stay private (docs/decisions/0071),
// through the whole app on a DATA_DIR of its own laid out as in production (photos in
// DATA_DIR/images, documents in DATA_DIR/private): what is stored is ciphertext, and only the
// admin's download route gives a document back, decrypted, as an attachment.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_KEY_FILE, parseDataKey } from "~/features/applications/data-key.server";
import { openOutboxLinks } from "~/features/applications/outbox-links.server";
import { DiskImageStore } from "~/features/images/storage.server";
import { withLinks } from "~/features/mail/outbox.server";
import { rawClient } from "../tests/support/raw-http";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const MARKER = "PLAINTEXT-MARKER-12345";
const MOVE_IN = `${new Date().getUTCFullYear() + 1}-06-01`;
const APPLICANT = {
  fullName: "Priya Privatename",
  email: "priya.privatename@example.com",
  phone: "703-555-0142",
  dateOfBirth: "1988-04-02",
  moveIn: MOVE_IN,
  occupants: "2",
};
const LATER_STEPS: [string, Record<string, string>][] = [
  ["residence", { address: "17 Hidden Lane", since: "2019-05-01" }],
  ["employment", { employer: "Secretive Widgets", monthlyIncome: "5400" }],
  [
    "references",
    {
      "reference.0.name": "Rita Reference",
      "reference.0.phone": "703-555-0101",
      "reference.1.name": "Rob Reference",
      "reference.1.phone": "703-555-0102",
    },
  ],
  ["adults", { "adult.0.name": "Omar Otheradult", "adult.0.email": "omar.otheradult@example.com" }],
];
const PNG_NAME = "passport-scan-of-priya.png";
const PDF_NAME = "payslip-of-priya.pdf";

/** A PDF whose page's text stream is not compressed: the marker is in its bytes as is. */
function pdfWithMarker(): Buffer {
  const content = `BT /F1 24 Tf 72 720 Td (${MARKER}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let text = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, "latin1");
}

/** A 24×8 PNG of coloured stripes (one colour per column of 3), and its raw pixels. */
async function stripedPng(): Promise<{ png: Buffer; pixels: Buffer }> {
  const width = 24;
  const height = 8;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 37) % 256;
      pixels[at + 1] = (x * 91 + y * 13) % 256;
      pixels[at + 2] = 255 - ((x * 53) % 256);
    }
  }
  const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { png, pixels };
}

const rawPixels = (image: Buffer) =>
  sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });

describe("an application's documents and answers stay private", () => {
  let dataDir: string;
  let t: TestApp;
  let client: ReturnType<typeof rawClient>;
  const cookies = { anonymous: "", member: "", admin: "" };
  let token = "";
  let applicationId = 0;
  let png: { png: Buffer; pixels: Buffer };
  const pdf = pdfWithMarker();
  let documents: { id: number; storageKey: string; contentType: string }[] = [];

  function post(url: string, body: URLSearchParams | FormData) {
    return fetch(`${t.base}${url}`, { method: "POST", body, redirect: "manual" });
  }

  /** Posts a step and follows nothing: the answer must be the 303 to the next step. */
  async function step(url: string, body: URLSearchParams | FormData) {
    const res = await post(url, body);
    const text = await res.text();
    expect(res.status, `${url}: ${text.slice(0, 2000)}`).toBe(303);
    return res.headers.get("location") ?? "";
  }

  function upload(kind: string, name: string, type: string, bytes: Buffer) {
    const form = new FormData();
    form.append("step", "documents");
    form.append("intent", "upload");
    form.append("kind", kind);
    form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
    return step(`/rental-application/continue?token=${token}`, form);
  }

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "application-privacy-"));
    t = await startTestApp({
      env: { DATA_DIR: dataDir },
      images: new DiskImageStore(path.join(dataDir, "images")),
    });
    client = rawClient(t.base);
    cookies.member = await t.signIn("member@example.com");
    cookies.admin = await t.signIn("boss@example.com", { admin: true });
    png = await stripedPng();

    // The first step (no listing is offered: there is none), then each later one.
    const first = await step(
      "/rental-application/apply",
      new URLSearchParams({ ...APPLICANT, intent: "next", step: "applicant" }),
    );
    token = /[?&]token=([A-Za-z0-9_-]{43})&step=residence$/.exec(first)?.[1] ?? "";
    expect(token, first).not.toBe("");
    for (const [id, fields] of LATER_STEPS) {
      await step(
        `/rental-application/continue?token=${token}`,
        new URLSearchParams({ ...fields, intent: "next", step: id }),
      );
    }
    await upload("id", PNG_NAME, "image/png", png.png);
    await upload("income", PDF_NAME, "application/pdf", pdf);
  });

  afterAll(async () => {
    client?.close();
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  async function storedDocuments() {
    return t.db.query<{ id: number; storageKey: string; contentType: string }>(
      `SELECT id::int AS id, storage_key AS "storageKey", content_type AS "contentType"
       FROM application_documents ORDER BY id`,
    );
  }

  it("keeps each uploaded document sealed under DATA_DIR/private/applications/{id}/", async () => {
    documents = await storedDocuments();
    expect(documents.map((d) => d.contentType)).toEqual(["image/png", "application/pdf"]);
    const [app] = await t.db.query<{ id: number }>("SELECT id::int AS id FROM applications");
    applicationId = app?.id ?? 0;
    const folder = path.join(dataDir, "private", "applications", String(applicationId));
    const files = (await fs.readdir(folder)).sort();
    expect(files).toEqual(documents.map((d) => path.posix.basename(d.storageKey)).sort());
    for (const d of documents) {
      expect(d.storageKey).toMatch(new RegExp(`^applications/${applicationId}/[0-9a-f-]{36}$`));
      const stored = await fs.readFile(path.join(dataDir, "private", d.storageKey));
      const latin1 = stored.toString("latin1");
      // No trace of what was sent: not its text, not its format's signature or chunks.
      expect.soft(latin1, d.storageKey).not.toContain(MARKER);
      expect.soft(latin1, d.storageKey).not.toContain("%PDF");
      expect.soft(latin1, d.storageKey).not.toContain("endobj");
      expect.soft(stored.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47])), d.storageKey).toBe(false);
      expect.soft(latin1, d.storageKey).not.toContain("IHDR");
      expect.soft(latin1, d.storageKey).not.toContain("IDAT");
      expect.soft(stored.includes(png.png.subarray(16, 48)), d.storageKey).toBe(false);
      expect.soft(latin1, d.storageKey).not.toContain("priya");
    }
    // Nothing of them anywhere else under DATA_DIR either (the photo folder, temporary files).
    const everything = await fs.readdir(dataDir, { recursive: true, withFileTypes: true });
    for (const entry of everything.filter((e) => e.isFile())) {
      const file = path.join(entry.parentPath, entry.name);
      const bytes = await fs.readFile(file);
      expect.soft(bytes.toString("latin1"), file).not.toContain(MARKER);
      expect.soft(bytes.includes(png.png.subarray(0, 16)), file).toBe(false);
    }
  });

  it("keeps the answers and the documents' names sealed in the database", async () => {
    const secrets = [
      APPLICANT.fullName,
      APPLICANT.email,
      APPLICANT.phone,
      "17 Hidden Lane",
      "Secretive Widgets",
      "Rita Reference",
      "Omar Otheradult",
      PNG_NAME,
      PDF_NAME,
    ];
    const answers = await t.db.query<{ answers: Uint8Array }>("SELECT answers FROM applicants");
    expect(answers).toHaveLength(1);
    for (const row of answers) {
      const text = Buffer.from(row.answers).toString("latin1");
      for (const secret of secrets) expect.soft(text, secret).not.toContain(secret);
      expect.soft(text).not.toContain("fullName");
    }
    const names = await t.db.query<{ name: Uint8Array }>(
      "SELECT name_sealed AS name FROM application_documents",
    );
    for (const row of names) {
      expect.soft(Buffer.from(row.name).toString("latin1")).not.toMatch(/priya|passport|payslip/);
    }
    // The application's own tables, read as text whole.
    for (const table of ["applications", "applicants", "application_documents"]) {
      const rows = await t.db.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
      const text = JSON.stringify(rows, (_, v) =>
        v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v,
      );
      for (const secret of [...secrets, token]) {
        expect.soft(text, `${table}: ${secret}`).not.toContain(secret);
      }
    }
  });

  describe("after the application is submitted", () => {
    beforeAll(async () => {
      await step(
        `/rental-application/continue?token=${token}`,
        new URLSearchParams({ step: "documents", intent: "next" }),
      );
      await step(
        `/rental-application/continue?token=${token}`,
        new URLSearchParams({ step: "review", intent: "submit", confirm: "on" }),
      );
      const [app] = await t.db.query<{ status: string }>("SELECT status FROM applications");
      expect(app?.status).toBe("received");
      if (documents.length === 0) documents = await storedDocuments();
      if (!applicationId) {
        const [row] = await t.db.query<{ id: number }>("SELECT id::int AS id FROM applications");
        applicationId = row?.id ?? 0;
      }
    });

    it("stores no usable private link in the outbox, shows none to staff, and sends it", async () => {
      const rows = await t.db.query<{ kind: string; row: string; body: string; ref: string }>(
        "SELECT kind, o::text AS row, body, ref, sealed_links FROM outbox o ORDER BY id",
      );
      expect(rows.map((r) => r.kind)).toEqual(
        expect.arrayContaining(["application-received", "application-adult"]),
      );
      const adultTokens = await t.db.query("SELECT id FROM applicants WHERE position > 0");
      expect(adultTokens).toHaveLength(1);
      for (const row of rows) {
        expect(row.row, row.kind).not.toContain(token);
        expect(row.row, row.kind).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
      }
      // The other adult's invitation names nobody the applicant typed.
      const adult = rows.find((r) => r.kind === "application-adult");
      expect(adult?.body).not.toContain("Omar");
      expect(adult?.body).not.toContain("Priya");
      // Staff's outbox page and its data: application mail without its text.
      for (const target of ["/admin/outbox", "/admin/outbox.data"]) {
        const res = await fetch(`${t.base}${target}`, { headers: { cookie: cookies.admin } });
        expect(res.status, target).toBe(200);
        const text = await res.text();
        expect(text, target).toContain("Application received");
        expect(text, target).not.toContain("continue?token");
        expect(text, target).not.toContain("private status page");
      }
      // The worker opens the sealed links with the site's key only as it sends.
      const root = parseDataKey(await fs.readFile(path.join(dataDir, DATA_KEY_FILE), "utf8"));
      const received = await t.db.query<{ body: string; ref: string; sealed: Uint8Array }>(
        "SELECT body, ref, sealed_links AS sealed FROM outbox WHERE kind = 'application-received'",
      );
      const message = received[0];
      const links = openOutboxLinks(root, Buffer.from(message?.sealed ?? []), message?.ref ?? "");
      expect(withLinks(message?.body ?? "", links)).toContain(
        `/rental-application/continue?token=${token}`,
      );
    });

    /** Every name a document might be reached by, but the admin's download route. */
    function leakingTargets() {
      const targets: string[] = [];
      for (const d of documents) {
        const key = d.storageKey;
        const uuid = path.posix.basename(key);
        const encoded = key.replaceAll("/", "%2F");
        targets.push(
          `/${key}`,
          `/private/${key}`,
          `/data/private/${key}`,
          `/images/${key}`,
          `/images/private/${key}`,
          `/images/..%2Fprivate%2F${encoded}`,
          `/images/%2e%2e/private/${key}`,
          `/images/properties/..%2F..%2Fprivate%2F${encoded}`,
          `/images/.trash/${key}`,
          `/images/site/${uuid}`,
          `/images/applications/${applicationId}/${uuid}.jpg`,
          `/${uuid}`,
          `/private/${uuid}`,
          `/applications/${uuid}`,
          `/assets/..%2F..%2Fprivate%2F${encoded}`,
          `/assets/${uuid}`,
          `/%2e%2e/private/${key}`,
          `/${encoded}`,
          `/rental-application/${uuid}`,
          `/rental-application/continue/${d.id}`,
          `/rental-application/continue?token=${token}&document=${d.id}`,
          `/rental-application/continue?token=${token}&step=documents&document=${d.id}`,
          `/rental-application/continue.data?token=${token}&step=documents`,
          `/rental-application/continue.data?token=${token}&step=review`,
          `/admin/applications/${applicationId}/documents/${uuid}`,
          `/admin/applications/${applicationId + 1}/documents/${d.id}`,
          `/admin/applications/${applicationId}/documents/${d.id}x`,
          `/admin/applications/${applicationId}/documents/${encodeURIComponent(key)}`,
          `/api/applications/${applicationId}/documents/${d.id}`,
          `/api/documents/${d.id}`,
        );
      }
      targets.push(
        "/application-data.key",
        "/images/application-data.key",
        "/images/..%2Fapplication-data.key",
        "/images/properties/..%2F..%2Fapplication-data.key",
        "/private/",
        "/private/applications/",
        `/private/applications/${applicationId}/`,
        "/images/",
        `/applications/${applicationId}`,
      );
      return targets;
    }

    /**
     * 404, but for the applicant's own page (its documents step lists names, never bytes; a
     * parameter it does not take is dropped with a 308 to its canonical form), the API's own
     * refusals (401 signed out, 403 not an admin) and the client files' refusal of a path that
     * climbs out of their folder (403).
     */
    function allowedStatuses(target: string, who: keyof typeof cookies): number[] {
      if (/^\/rental-application\/continue(\.data)?\?/.test(target)) {
        return target.includes("document=") ? [308] : [200];
      }
      if (target.startsWith("/api/")) return [{ anonymous: 401, member: 403, admin: 404 }[who]];
      if (target.startsWith("/assets/..")) return [403, 404];
      return [404];
    }

    /** What must never be in an answer: the document, whole or in part, sealed or not. */
    async function forbidden() {
      const sealed = await Promise.all(
        documents.map((d) => fs.readFile(path.join(dataDir, "private", d.storageKey))),
      );
      const key = await fs.readFile(path.join(dataDir, "application-data.key"), "utf8");
      return [
        Buffer.from(MARKER),
        pdf.subarray(0, 64),
        png.png.subarray(0, 24),
        ...sealed.map((s) => s.subarray(13, 45)),
        ...sealed.map((s) => Buffer.from(s.subarray(13, 45).toString("base64"))),
        Buffer.from(key.trim()),
      ];
    }

    it.each(["anonymous", "member", "admin"] as const)(
      "serves a document under no other name, to %s",
      async (who) => {
        const never = await forbidden();
        for (const target of leakingTargets()) {
          for (const method of ["GET", "HEAD"]) {
            const res = await client.send({
              method,
              target,
              headers: cookies[who] ? { cookie: cookies[who] } : {},
            });
            const where = `${who} ${method} ${target}`;
            expect.soft(allowedStatuses(target, who), where).toContain(res.status);
            expect.soft(res.headers["content-disposition"], where).toBeUndefined();
            for (const bytes of never) {
              expect
                .soft(res.body.includes(bytes), `${where}: ${bytes.toString("hex", 0, 8)}`)
                .toBe(false);
            }
          }
        }
      },
    );

    it.each(["anonymous", "member"] as const)(
      "answers the admin's download and PDF routes with 404 for %s, without the bytes",
      async (who) => {
        const never = await forbidden();
        const targets = [
          ...documents.map((d) => `/admin/applications/${applicationId}/documents/${d.id}`),
          `/admin/applications/${applicationId}/pdf`,
          `/admin/applications/${applicationId}`,
          `/admin/applications/${applicationId}.data`,
        ];
        for (const target of targets) {
          for (const method of ["GET", "HEAD"]) {
            const res = await client.send({
              method,
              target,
              headers: cookies[who] ? { cookie: cookies[who] } : {},
            });
            const where = `${who} ${method} ${target}`;
            expect.soft(res.status, where).toBe(404);
            expect.soft(res.headers["content-disposition"], where).toBeUndefined();
            for (const bytes of never) expect.soft(res.body.includes(bytes), where).toBe(false);
          }
        }
        // Nobody but the admin was recorded as having downloaded anything.
        const downloads = await t.db.query(
          "SELECT by_email FROM application_events WHERE action = 'download' AND by_email <> 'boss@example.com'",
        );
        expect(downloads).toEqual([]);
      },
    );

    it.each(["anonymous", "member"] as const)(
      "answers the download and PDF routes with a 404 that says so for %s, whatever the method, as the inbox's CSV",
      async (who) => {
        // (Like /admin/inbox/export, server/fuzz-findings.test.ts: not React Router's 405 to a
        // write, nor the body `null` of a resource route's thrown data(null, 404).)
        const targets = [
          ...documents.map((d) => `/admin/applications/${applicationId}/documents/${d.id}`),
          `/admin/applications/${applicationId}/pdf`,
        ];
        for (const target of targets) {
          for (const method of ["GET", "POST", "PUT", "DELETE", "OPTIONS"]) {
            const res = await client.send({
              method,
              target,
              headers: cookies[who] ? { cookie: cookies[who] } : {},
            });
            const where = `${who} ${method} ${target}`;
            expect.soft([res.status, res.body.toString()], where).toEqual([404, "Not Found"]);
          }
        }
      },
    );

    it("gives the admin each document decrypted, as an attachment: the PDF as sent, the PNG re-encoded with the same pixels", async () => {
      const [image, file] = documents;
      const get = (id: number) =>
        fetch(`${t.base}/admin/applications/${applicationId}/documents/${id}`, {
          headers: { cookie: cookies.admin },
        });

      const pdfRes = await get(file?.id ?? 0);
      expect(pdfRes.status).toBe(200);
      expect(pdfRes.headers.get("content-type")).toBe("application/pdf");
      // Named from the kind and the checked type, never the uploaded name.
      expect(pdfRes.headers.get("content-disposition")).toBe(
        `attachment; filename="income-${file?.id}.pdf"`,
      );
      expect(pdfRes.headers.get("cache-control")).toBe("no-store");
      expect(pdfRes.headers.get("x-content-type-options")).toBe("nosniff");
      expect(Buffer.from(await pdfRes.arrayBuffer()).equals(pdf)).toBe(true);

      const pngRes = await get(image?.id ?? 0);
      expect(pngRes.status).toBe(200);
      expect(pngRes.headers.get("content-type")).toBe("image/png");
      expect(pngRes.headers.get("content-disposition")).toBe(
        `attachment; filename="id-${image?.id}.png"`,
      );
      const got = Buffer.from(await pngRes.arrayBuffer());
      expect(got.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      const decoded = await rawPixels(got);
      expect([decoded.info.width, decoded.info.height]).toEqual([24, 8]);
      expect(decoded.data.equals(png.pixels)).toBe(true);

      // Each download is in the application's history, by the admin.
      const events = await t.db.query<{ by: string; detail: { document: number } }>(
        `SELECT by_email AS by, detail FROM application_events WHERE action = 'download'
         ORDER BY id`,
      );
      expect(events).toEqual([
        { by: "boss@example.com", detail: { document: file?.id } },
        { by: "boss@example.com", detail: { document: image?.id } },
      ]);
    });

    it("gives the admin the whole application as a PDF attachment", async () => {
      const res = await fetch(`${t.base}/admin/applications/${applicationId}/pdf`, {
        headers: { cookie: cookies.admin },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="application-${applicationId}.pdf"`,
      );
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
    });
  });
});
