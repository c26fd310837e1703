// `npm run admin -- settings export <file>` / `settings import <file>` (docs/behaviour.md §23):
// through a running server's admin socket (embedded database), and on PostgreSQL directly;
// a round trip with the logo, the PDF and the featured list; invalid files change nothing.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { DiskImageStore } from "~/features/images/index.server";
import { insertListing } from "~/features/listings/queries.server";
import { runAdminCli, startAdminSocket } from "~/features/operations/index.server";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { editableOf } from "./editable";
import { featuredEntries } from "./featured.server";
import { readStoredContent } from "./settings.server";
import { SETTINGS_FORMAT } from "./settings-transfer.server";

const PDF = Buffer.from("%PDF-1.4\n%%EOF\n");

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

for (const target of dbTargets) {
  describe(`settings on the command line (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let root: string;
    let env: { databaseUrl: string | undefined; dataDir: string; adminEmails: string[] };
    let socket: Awaited<ReturnType<typeof startAdminSocket>> | undefined;

    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
      root = await fs.mkdtemp(path.join(os.tmpdir(), "settings-cli-"));
      const images = new DiskImageStore(path.join(root, "images"));
      if (target.name === "pglite") {
        // The embedded database is the server's: the CLI goes through its socket.
        socket = await startAdminSocket(db, root, [], {}, images);
        env = { databaseUrl: undefined, dataDir: root, adminEmails: [] };
      } else {
        const url = new URL(process.env.TEST_DATABASE_URL as string);
        const [row] = await db.query<{ schema: string }>("SELECT current_schema() AS schema");
        url.searchParams.set("options", `-c search_path=${row?.schema}`);
        env = { databaseUrl: url.toString(), dataDir: root, adminEmails: [] };
      }
      for (const [collection, id, address] of [
        ["properties", "1-a-street", "1 A Street"],
        ["newConstruction", "2-b-street", "2 B Street"],
      ] as const) {
        await insertListing(db, collection, id, {
          address,
          bedrooms: null,
          bathrooms: null,
          description: "",
          image_urls: [],
          thumbnail_description: "",
          property_type: "Residential",
          currently_available: collection === "properties" ? true : null,
          price: null,
          reserve_url: null,
        });
      }
    });
    afterAll(async () => {
      await socket?.close();
      await cleanup?.();
      await fs.rm(root, { recursive: true, force: true });
    });

    it("exports the defaults of a fresh install", async () => {
      const file = path.join(root, "fresh.json");
      const c = capture();
      expect(await runAdminCli(["settings", "export", file], env, c.io)).toBe(0);
      expect(c.out).toEqual([`Exported the site settings to ${file}.`]);
      const doc = JSON.parse(await fs.readFile(file, "utf8"));
      expect(doc).toEqual({
        format: SETTINGS_FORMAT,
        settings: editableOf(company),
        logo: null,
        applicationPdf: null,
        featured: null,
      });
    });

    it("imports a file with a logo, a PDF and featured listings, and exports it back", async () => {
      const logo = await sharp({
        create: { width: 300, height: 100, channels: 3, background: "#336699" },
      })
        .png()
        .toBuffer();
      const file = path.join(root, "setup.json");
      await fs.writeFile(
        file,
        JSON.stringify({
          format: SETTINGS_FORMAT,
          settings: {
            ...editableOf(company),
            name: "Scripted Leasing",
            errorContactName: "Sam",
            applicationFee: "",
            screeningCriteria: "Steady income.\n\nTwo references.",
          },
          logo: { data: logo.toString("base64") },
          applicationPdf: { data: PDF.toString("base64") },
          featured: [
            { collection: "newConstruction", id: "2-b-street" },
            { collection: "properties", id: "1-a-street" },
            { collection: "properties", id: "gone" },
          ],
        }),
      );
      const c = capture();
      expect(await runAdminCli(["settings", "import", file], env, c.io)).toBe(0);
      expect(c.out).toEqual([`Imported the site settings from ${file}.`]);
      const stored = await readStoredContent(db);
      expect(stored.name).toBe("Scripted Leasing");
      expect(stored.errorContactName).toBe("Sam");
      expect(stored.application).toEqual({
        fee: "",
        screeningCriteria: "Steady income.\n\nTwo references.",
      });
      expect(stored.logo?.src).toMatch(/^\/images\/site\/logo_\d+\.png$/);
      expect((await featuredEntries(db)).map((e) => e.address)).toEqual([
        "2 B Street",
        "1 A Street",
      ]);

      const back = path.join(root, "back.json");
      expect(await runAdminCli(["settings", "export", back], env, capture().io)).toBe(0);
      const doc = JSON.parse(await fs.readFile(back, "utf8"));
      expect(doc.settings.name).toBe("Scripted Leasing");
      expect(doc.settings.applicationFee).toBe("");
      expect(doc.settings.screeningCriteria).toBe("Steady income.\n\nTwo references.");
      expect(Buffer.from(doc.applicationPdf.data, "base64").equals(PDF)).toBe(true);
      expect((await sharp(Buffer.from(doc.logo.data, "base64")).metadata()).format).toBe("png");
      expect(doc.featured).toEqual([
        { collection: "newConstruction", id: "2-b-street" },
        { collection: "properties", id: "1-a-street" },
      ]);
    });

    it("imports a file exported before 'Application fee' and 'Screening criteria': the defaults", async () => {
      const { applicationFee: _fee, screeningCriteria: _criteria, ...older } = editableOf(company);
      const file = path.join(root, "older.json");
      await fs.writeFile(
        file,
        JSON.stringify({
          format: SETTINGS_FORMAT,
          settings: { ...older, name: "Older Leasing" },
          logo: null,
          applicationPdf: null,
          featured: null,
        }),
      );
      expect(await runAdminCli(["settings", "import", file], env, capture().io)).toBe(0);
      const stored = await readStoredContent(db);
      expect(stored.name).toBe("Older Leasing");
      expect(stored.application).toBeUndefined();
      const back = path.join(root, "older-back.json");
      expect(await runAdminCli(["settings", "export", back], env, capture().io)).toBe(0);
      const doc = JSON.parse(await fs.readFile(back, "utf8"));
      expect(doc.settings.applicationFee).toBe(company.application.fee);
      expect(doc.settings.screeningCriteria).toBe(company.application.screeningCriteria);
    });

    it("refuses an invalid file with exit code 2 and changes nothing", async () => {
      const before = await readStoredContent(db);
      const cases: [string, string, RegExp][] = [
        ["not-json.json", "{", /is not valid JSON/],
        ["wrong-format.json", JSON.stringify({ format: "x" }), /format must be/],
        [
          "empty-name.json",
          JSON.stringify({
            format: SETTINGS_FORMAT,
            settings: { ...editableOf(company), name: "" },
            logo: null,
            applicationPdf: null,
            featured: null,
          }),
          /Company name is required/,
        ],
        [
          "control-character.json",
          JSON.stringify({
            format: SETTINGS_FORMAT,
            settings: { ...editableOf(company), screeningCriteria: "Bell\u0007" },
            logo: null,
            applicationPdf: null,
            featured: null,
          }),
          /Screening criteria cannot contain control characters/,
        ],
        [
          "svg.json",
          JSON.stringify({
            format: SETTINGS_FORMAT,
            settings: editableOf(company),
            logo: {
              data: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64"),
            },
            applicationPdf: null,
            featured: null,
          }),
          /not accepted|not an image/,
        ],
      ];
      for (const [name, text, message] of cases) {
        const file = path.join(root, name);
        await fs.writeFile(file, text);
        const c = capture();
        expect(await runAdminCli(["settings", "import", file], env, c.io), name).toBe(2);
        expect(c.err.join("\n"), name).toMatch(message);
      }
      expect(await runAdminCli(["settings", "import"], env, capture().io)).toBe(2);
      expect(await readStoredContent(db)).toEqual(before);
    });
  });
}
