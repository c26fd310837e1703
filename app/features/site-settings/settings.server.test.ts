// Site settings through the whole app on each database (docs/behaviour.md §18): defaults on a
// fresh install, a save with files, refusals that change nothing, back to the defaults, and
// kept pages dropped on this instance and on another one.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import type { ImageStore } from "~/features/images/index.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { imageStoreTargets, stopSharedS3 } from "../../../tests/support/image-store-targets";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { editableOf } from "./editable";
import { getSiteContent, readStoredContent } from "./settings.server";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
);

function form(data: unknown, files: Record<string, [Buffer, string]> = {}) {
  const body = new FormData();
  body.append("data", JSON.stringify(data));
  for (const [field, [bytes, name]] of Object.entries(files)) {
    body.append(field, new Blob([new Uint8Array(bytes)]), name);
  }
  return body;
}

const defaults = editableOf(company);

afterAll(stopSharedS3);

// On each database and each image store: the logo and PDF are files on disk or bucket objects.
const combinations = dbTargets.flatMap((db) =>
  imageStoreTargets.map((storage) => ({ name: `${db.name} + ${storage.name}`, db, storage })),
);

for (const { name, db: target, storage } of combinations) {
  describe(`site settings (${name})`, () => {
    let app: TestApp<ImageStore>;
    let cleanup: () => Promise<void>;
    let cleanupStore: (() => Promise<void>) | undefined;
    let other: TestApp<ImageStore> | undefined;
    let admin = "";

    beforeAll(async () => {
      const opened = await target.open();
      cleanup = opened.cleanup;
      const store = await storage.open();
      cleanupStore = store.cleanup;
      app = await startTestApp({ db: opened.db, images: store.images });
      if (opened.another)
        other = await startTestApp({ db: await opened.another(), images: store.images });
      admin = await app.signIn("office@example.com", { admin: true });
    });
    afterAll(async () => {
      await other?.close();
      await app?.close();
      await cleanup?.();
      await cleanupStore?.();
    });

    const page = async (p: string, on: TestApp<ImageStore> = app) =>
      (await fetch(on.base + p)).text();
    const put = (body: FormData, cookie = admin) =>
      fetch(`${app.base}/api/site`, { method: "PUT", body, headers: { cookie } });
    const siteFiles = async () =>
      (await app.images.keys())
        .filter((key) => key.startsWith("site/"))
        .map((key) => key.slice("site/".length));

    it("shows the defaults of app/domain/company.ts on a fresh install", async () => {
      expect(await readStoredContent(app.db)).toEqual({});
      expect(await page("/")).toContain(company.tagline);
      const pdf = await fetch(`${app.base}/rental-application.pdf`);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
    });

    it("saves fields, a logo and a PDF; pages show them on the next request, kept or not", async () => {
      // Kept pages exist on both instances first.
      for (const on of [app, other].filter((a): a is TestApp => a !== undefined)) {
        expect(await page("/", on)).toContain(company.name);
        expect(await page("/about", on)).toContain("Residential Leasing");
      }
      const logo = await sharp({
        create: { width: 1200, height: 600, channels: 4, background: "#12345680" },
      })
        .png()
        .toBuffer();
      const settings = {
        ...defaults,
        name: "Blue Ridge Leasing",
        tagline: "Homes in the valley.",
        services: [
          { title: "Vacation Rentals", text: "Cabins." },
          { title: "Residential Leasing", text: "Houses." },
        ],
        contacts: [{ role: "Owner", name: "Ana Ortiz", email: "ana@example.com" }],
        errorContactName: "Ana Ortiz",
      };
      const res = await put(
        form(settings, { logo: [logo, "logo.png"], application: [PDF, "form.pdf"] }),
      );
      expect(res.status).toBe(200);
      const saved = (await res.json()) as {
        settings: typeof settings;
        logo: { src: string; width: number; height: number };
        applicationPdf: string;
      };
      expect(saved.settings.name).toBe("Blue Ridge Leasing");
      expect(saved.logo.src).toMatch(/^\/images\/site\/logo_\d+\.png$/);
      // Sized like the default logo (160 wide: 320 px in the hero), the file 640 px wide.
      expect([saved.logo.width, saved.logo.height]).toEqual([160, 80]);

      const stored = await readStoredContent(app.db);
      expect(stored.name).toBe("Blue Ridge Leasing");
      // Only what differs from the defaults is stored.
      expect(stored.about?.aboutUs).toBeUndefined();

      const home = await page("/");
      expect(home).toContain("Blue Ridge Leasing");
      expect(home).toContain(saved.logo.src);
      const about = await page("/about");
      expect(about.indexOf("Vacation Rentals")).toBeLessThan(about.indexOf("Residential Leasing"));
      expect(await page("/contact")).toContain("ana@example.com");
      const served = await fetch(app.base + saved.logo.src);
      expect(served.headers.get("content-type")).toBe("image/png");
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.width).toBe(640);
      const pdf = await fetch(`${app.base}/rental-application.pdf`);
      expect(Buffer.from(await pdf.arrayBuffer()).equals(PDF)).toBe(true);
      // Another instance on the same database drops its kept pages too (NOTIFY).
      if (other) {
        const on = other;
        await expect.poll(() => page("/", on)).toContain("Blue Ridge Leasing");
      }
    });

    it("refuses an SVG logo, a non-PDF form and bad fields with a 400, changing nothing", async () => {
      const before = await readStoredContent(app.db);
      const files = await siteFiles();
      const svg = await put(form(defaults, { logo: [SVG, "logo.svg"] }));
      expect(svg.status).toBe(400);
      expect(((await svg.json()) as { error: string }).error).toMatch(/SVG files are not accepted/);
      const notPdf = await put(form(defaults, { application: [Buffer.from("hello"), "a.pdf"] }));
      expect(notPdf.status).toBe(400);
      expect(((await notPdf.json()) as { error: string }).error).toBe(
        "The rental application form must be a PDF file.",
      );
      const empty = await put(form({ ...defaults, name: "  " }));
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { error: string }).error).toBe("Company name is required.");
      const badEmail = await put(
        form({ ...defaults, contacts: [{ role: "A", name: "B", email: "nope" }] }),
      );
      expect(((await badEmail.json()) as { error: string }).error).toBe(
        "A contact's e-mail must be an e-mail address.",
      );
      const badColour = await put(
        form({ ...defaults, brandColors: { primary: "red;}body{x:y", accent: "#c9a227" } }),
      );
      expect(((await badColour.json()) as { error: string }).error).toBe(
        "The primary colour must be a colour like #16325c.",
      );
      const badOffice = await put(form({ ...defaults, office: { phone: "1", email: "nope" } }));
      expect(((await badOffice.json()) as { error: string }).error).toBe(
        "The office's e-mail must be an e-mail address.",
      );
      const notJson = new FormData();
      notJson.append("data", "{");
      expect((await put(notJson)).status).toBe(400);
      expect(await readStoredContent(app.db)).toEqual(before);
      expect((await siteFiles()).sort()).toEqual(files.sort());
    });

    it("saves the office and the brand colours: footer, contact page and :root show them", async () => {
      const office = { phone: "555-0199", email: "desk@example.com", hours: "Always" };
      const saved = await put(
        form({ ...defaults, office, brandColors: { primary: "#004400", accent: "#ffcc00" } }),
      );
      expect(saved.status).toBe(200);
      const stored = await readStoredContent(app.db);
      expect(stored.office).toEqual(office);
      expect(stored.brandColors).toEqual({ primary: "#004400", accent: "#ffcc00" });
      const contact = await page("/contact");
      expect(contact).toContain("desk@example.com");
      expect(contact).toContain("Always");
      expect(contact).toContain("--brand-primary:#004400");
      // Back to the defaults: nothing of them stays stored.
      expect((await put(form(defaults))).status).toBe(200);
      expect((await readStoredContent(app.db)).office).toBeUndefined();
      expect(await page("/contact")).toContain(company.office.email);
    });

    it("saves 'Application fee' and 'Screening criteria': every page's company carries them", async () => {
      // As the page sends them: beside `application`, its choice for the PDF.
      const res = await put(
        form({
          ...defaults,
          applicationFee: "  Sixty dollars per adult, paid at review  ",
          screeningCriteria: "Income of twice the rent.\r\n\r\nNo pets over forty pounds.",
          application: "keep",
        }),
      );
      expect(res.status).toBe(200);
      const saved = (await res.json()) as { settings: typeof defaults };
      const expected = {
        fee: "Sixty dollars per adult, paid at review",
        screeningCriteria: "Income of twice the rent.\n\nNo pets over forty pounds.",
      };
      expect(saved.settings.applicationFee).toBe(expected.fee);
      expect(saved.settings.screeningCriteria).toBe(expected.screeningCriteria);
      expect((await readStoredContent(app.db)).application).toEqual(expected);
      // The server's content (and the root loader's `company`, which useCompany() reads).
      const content = await getSiteContent(app.db);
      expect(content.application).toEqual({ ...company.application, ...expected });
      expect(await page("/")).toContain("Sixty dollars per adult, paid at review");
      const settingsPage = await fetch(`${app.base}/admin/site`, { headers: { cookie: admin } });
      expect(await settingsPage.text()).toContain("No pets over forty pounds.");

      // Empty is allowed, and stored as such (the defaults are not empty).
      expect(company.application.fee).not.toBe("");
      expect(company.application.screeningCriteria).not.toBe("");
      const empty = await put(form({ ...defaults, applicationFee: "", screeningCriteria: " " }));
      expect(empty.status).toBe(200);
      expect((await getSiteContent(app.db)).application).toMatchObject({
        fee: "",
        screeningCriteria: "",
      });

      // Refused like the other text fields, changing nothing.
      const before = await readStoredContent(app.db);
      const refusals: [Record<string, unknown>, string][] = [
        [{ applicationFee: "One\nTwo" }, "Application fee must be one line of text."],
        [{ applicationFee: "x".repeat(301) }, "Application fee must be at most 300 characters."],
        [{ applicationFee: 45 }, "The setting applicationFee is missing or of the wrong kind."],
        [
          { screeningCriteria: "Bell\u0007" },
          "Screening criteria cannot contain control characters.",
        ],
        [
          { screeningCriteria: "x".repeat(5001) },
          "Screening criteria must be at most 5000 characters.",
        ],
      ];
      for (const [bad, message] of refusals) {
        const refused = await put(form({ ...defaults, ...bad }));
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { error: string }).error).toBe(message);
      }
      expect(await readStoredContent(app.db)).toEqual(before);

      // Other stored parts of `application` (not on the page) are kept by a save.
      await app.db.query(
        `UPDATE site_settings SET content = jsonb_set(content, '{application,steps}', '["Call us."]') WHERE id`,
      );
      expect((await put(form(defaults))).status).toBe(200);
      expect((await readStoredContent(app.db)).application).toEqual({ steps: ["Call us."] });
      expect((await getSiteContent(app.db)).application).toEqual({
        ...company.application,
        steps: ["Call us."],
      });
      await app.db.query(`UPDATE site_settings SET content = content - 'application' WHERE id`);

      // Back to the defaults: nothing of them stays stored.
      expect((await put(form(defaults))).status).toBe(200);
      expect((await readStoredContent(app.db)).application).toBeUndefined();
      expect((await getSiteContent(app.db)).application).toEqual(company.application);
    });

    it("saves 'Automatic reply' on or off, checks its placeholders, and never shows it on pages", async () => {
      const text = "Thanks for asking about {address}. Call {office_phone}.";
      const res = await put(form({ ...defaults, autoReply: { enabled: true, text } }));
      expect(res.status).toBe(200);
      expect((await getSiteContent(app.db)).autoReply).toEqual({ enabled: true, text });
      // The root loader's company, sent with every page, leaves it out.
      expect(await page("/")).not.toContain("Thanks for asking about");
      const off = await put(form({ ...defaults, autoReply: { enabled: false, text } }));
      expect(off.status).toBe(200);
      expect((await getSiteContent(app.db)).autoReply.enabled).toBe(false);
      const before = await readStoredContent(app.db);
      const refused = await put(
        form({ ...defaults, autoReply: { enabled: true, text: "Dear {name}, thanks." } }),
      );
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /^The automatic reply has an unknown placeholder \{name\}\. It may use \{address\}/,
      );
      expect(await readStoredContent(app.db)).toEqual(before);
      // The default wording is stored as nothing.
      expect((await put(form(defaults))).status).toBe(200);
      expect((await readStoredContent(app.db)).autoReply).toBeUndefined();
    });

    it("answers 401 and 403 to others, and the page is the ordinary 404", async () => {
      const member = await app.signIn("member@example.com");
      expect((await put(form(defaults), "")).status).toBe(401);
      expect((await put(form(defaults), member)).status).toBe(403);
      const res = await fetch(`${app.base}/admin/site`, { headers: { cookie: member } });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Page not found");
    });

    it("goes back to the default logo and the generated form, deleting the replaced files", async () => {
      const res = await put(form({ ...defaults, logo: "default", application: "generated" }));
      expect(res.status).toBe(200);
      expect(await siteFiles()).toEqual([]);
      expect(await readStoredContent(app.db)).toEqual({});
      expect(await page("/")).toContain(company.logo.src);
      const pdf = Buffer.from(
        await (await fetch(`${app.base}/rental-application.pdf`)).arrayBuffer(),
      );
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdf.equals(PDF)).toBe(false);
    });
  });
}
