// The staff table and CSV endpoints through the whole app (docs/behaviour.md §25): admins only,
// same-origin writes, the dry run and the import re-checked on the server, a clear 4xx (never a
// 5xx) for any bad file, audit events for export and import.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS, CSV_MAX_BYTES } from "~/domain/listing-csv";
import { getListing } from "~/features/listings/index.server";
import { captureLogs } from "../tests/support/logs";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const logs = captureLogs();
let app: TestApp;
let admin = "";
let staff = "";
beforeAll(async () => {
  app = await startTestApp();
  admin = await app.signIn("ada@example.com", { admin: true });
  staff = await app.signIn("sam@example.com");
}, 120_000);
afterAll(async () => {
  await app?.close();
  logs.restore();
});

const csvFile = (...rows: string[]) => [CSV_COLUMNS.join(","), ...rows].join("\r\n");
const cells = (collection: string, address: string, extra = "") =>
  `${collection},${address}${",".repeat(CSV_COLUMNS.length - 2 - (extra ? 1 : 0))}${extra ? `,${extra}` : ""}`;

const post = (path: string, body: BodyInit, cookie = admin, headers: Record<string, string> = {}) =>
  fetch(`${app.base}/api${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "text/csv", ...headers },
    body,
  });

describe("listing table and CSV over HTTP", () => {
  it("is for admins only: the page is a 404, the endpoints 401/403", async () => {
    for (const cookie of ["", staff]) {
      expect((await fetch(`${app.base}/admin/listings`, { headers: { cookie } })).status).toBe(404);
      const status = cookie ? 403 : 401;
      expect((await fetch(`${app.base}/api/listings-csv`, { headers: { cookie } })).status).toBe(
        status,
      );
      expect((await post("/listings-csv/check", csvFile(), cookie)).status).toBe(status);
      expect((await post("/listings-csv/import", csvFile(), cookie)).status).toBe(status);
    }
    const crossSite = await post(
      "/listings-csv/import",
      csvFile(cells("properties", "1 Evil Way")),
      admin,
      {
        origin: "https://evil.example",
      },
    );
    expect(crossSite.status).toBe(403);
    expect(await getListing(app.db, "properties", "1-evil-way")).toBeNull();
  });

  it("answers every bad file with a message and a 4xx", async () => {
    const bad: [BodyInit, string, number][] = [
      ["", "The file is empty.", 400],
      [new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), "This is not a CSV text file", 400],
      ["name,colour\r\nx,y", "The first line must name the columns", 400],
      [new Uint8Array(CSV_MAX_BYTES + 10).fill(0x41), "The file is too large: at most 5 MB.", 413],
      [`${CSV_COLUMNS.join(",")}\r\n"broken`, "The file is not valid CSV", 400],
    ];
    for (const [body, message, status] of bad) {
      const answer = await post("/listings-csv/check", body);
      expect(answer.status).toBe(status);
      expect(((await answer.json()) as { error: string }).error).toContain(message);
      expect((await post("/listings-csv/import", body)).status).toBe(status);
    }
    const asJson = await post("/listings-csv/check", JSON.stringify({ a: 1 }), admin, {
      "content-type": "application/json",
    });
    expect(asJson.status).toBe(400);
  });

  it("dry run, then the import checked again: a refused row imports nothing", async () => {
    const withRefusal = csvFile(
      cells("properties", "2 Csv Street"),
      cells("castles", "3 Csv Street"),
    );
    const check = await post("/listings-csv/check", withRefusal);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({
      ready: [
        {
          line: 2,
          collection: "properties",
          address: "2 Csv Street",
          // The row's 'Listing check' (docs/behaviour.md §29): shown, never a refusal.
          warnings: [
            "Feeds: add a city",
            "Feeds: add a state",
            "Feeds: add a ZIP code",
            "Feeds: add a price",
            "Feeds: add the number of bedrooms",
            "Feeds: add the number of bathrooms",
            "Feeds: add a description",
          ],
        },
      ],
      refused: [
        {
          line: 3,
          reason: "Unknown kind 'castles': the collection must be properties or newConstruction.",
        },
      ],
    });
    // Whatever the browser was shown, the server refuses the file as a whole.
    const refused = await post("/listings-csv/import", withRefusal);
    expect(refused.status).toBe(400);
    expect(await getListing(app.db, "properties", "2-csv-street")).toBeNull();

    logs.clear();
    const good = csvFile(
      cells("properties", "2 Csv Street"),
      cells("newConstruction", "3 Csv Street"),
    );
    const imported = await post("/listings-csv/import", good);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toEqual({ imported: 2 });
    expect(await getListing(app.db, "newConstruction", "3-csv-street")).not.toBeNull();
    expect(logs.lines.filter((l) => l.event === "listings imported")).toMatchObject([
      { who: "ada@example.com", rows: 2 },
    ]);
  });

  it("exports a CSV download, logged; the table lists, searches and sorts", async () => {
    logs.clear();
    const answer = await fetch(`${app.base}/api/listings-csv`, { headers: { cookie: admin } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="listings-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await answer.text();
    expect(text.split("\r\n")[0]).toBe(CSV_COLUMNS.join(","));
    expect(text).toContain("3 Csv Street");
    expect(logs.lines.filter((l) => l.event === "listings exported")).toMatchObject([
      { who: "ada@example.com", rows: 2 },
    ]);

    const page = async (query: string) => {
      const res = await fetch(`${app.base}/admin/listings${query}`, {
        headers: { cookie: admin },
        redirect: "manual",
      });
      return { status: res.status, location: res.headers.get("location"), html: await res.text() };
    };
    const all = await page("");
    expect(all.status).toBe(200);
    expect(all.html).toContain("<h1>All listings</h1>");
    expect(all.html).toContain("2 Csv Street");
    const search = await page("?q=3+csv");
    expect(search.html).toContain("3 Csv Street");
    expect(search.html).not.toContain("2 Csv Street");
    const sorted = await page("?sort=address&dir=desc");
    expect(sorted.html.indexOf("3 Csv Street")).toBeLessThan(sorted.html.indexOf("2 Csv Street"));
    expect(sorted.html).toMatch(/aria-sort="descending"[^>]*><a[^>]*>Address/);
    // Unknown values are dropped by the canonical-URL rules (a 308 to the page without them).
    expect(await page("?sort=price&page=0")).toMatchObject({
      status: 308,
      location: "/admin/listings",
    });
  });
});
