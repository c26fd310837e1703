// The listing feeds through the whole app, on both databases (docs/behaviour.md §28): each feed
// parsed by a real XML parser (or JSON.parse) and checked field by field, with text holding XML's
// special characters and non-ASCII; what is left out of each and why; ETags and 304s; one query
// per change, and a change shown within 10 seconds; fetches recorded for /admin/feeds.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import type { ListingInput } from "~/features/listings/queries.server";
import { insertListing } from "~/features/listings/queries.server";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../tests/support/db-targets";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

const TRICKY = `Tom & Jerry's <"Grand"> Café — Łódź 東京`;
const COMPANY = `Ünïcode & <Sons> "Leasing" 'Co'`;

const base: ListingInput = {
  address: "",
  bedrooms: 3,
  bathrooms: 2.5,
  description: `${TRICKY}\nSecond line & more.`,
  image_urls: [],
  thumbnail_description: "Near <the> park & shops",
  property_type: "Residential",
  currently_available: true,
  price: "2500",
  reserve_url: null,
  square_feet: 1450,
  city: "Arlington & Co",
  state: "VA",
  zip: "22201",
  pets: "cats-and-dogs",
  available_from: "2027-03-01",
};

const photo = (id: string, n: number) => `/images/properties/${id}/image_1700000000000_${n}.jpg`;

/** The listings of the tests: the complete one (the HotPads feed's), and others left out of it. */
const COMPLETE = `1 O'Brien & <Sons> "Way" Łódź`;
const NO_ZIP = "2 No Zip Road";
const NO_PHOTOS = "3 Bare Lane";
const TAKEN = "4 Taken Court";
const BEACH = "5 Beach House";
const BUILDING = "6 New Build Street";

async function seed(db: Db) {
  const id = listingKey(COMPLETE);
  const add = (address: string, input: Partial<ListingInput>, collection = "properties") =>
    insertListing(db, collection as "properties", listingKey(address), {
      ...base,
      address,
      ...input,
    });
  await add(COMPLETE, {
    image_urls: [photo(id, 0), photo(id, 1)],
    image_captions: { [photo(id, 0)]: `Front & "porch" <east> Été` },
  });
  await add(NO_ZIP, { zip: null, image_urls: [photo("x", 0)] });
  await add(NO_PHOTOS, { zip: null, price: "Call us" });
  await add(TAKEN, { currently_available: false, image_urls: [photo("t", 0)], price: "9999" });
  await add(BEACH, {
    property_type: "Vacation",
    reserve_url: "https://reserve.example/beach?a=1&b=2",
    image_urls: [photo("b", 0)],
  });
  await add(
    BUILDING,
    {
      price: null,
      currently_available: null,
      reserve_url: null,
      pets: null,
      available_from: null,
      image_urls: [photo("n", 0)],
    },
    "newConstruction",
  );
  await db.query(
    `INSERT INTO site_settings (id, content) VALUES (true, $1::jsonb)
     ON CONFLICT (id) DO UPDATE SET content = excluded.content`,
    [
      JSON.stringify({
        name: COMPANY,
        office: {
          email: "office+feeds@example.com",
          phone: "703-555-0100",
          address: "1000 N Example Blvd, Falls Church, VA 22046",
        },
      }),
    ],
  );
  // One insert after another can share a timestamp (the feeds then order by kind and id): the
  // addresses' numbers give each its own, oldest first, so "newest first" has one answer.
  await db.query(
    "UPDATE listings SET created_at = now() - (10 - split_part(address, ' ', 1)::int) * interval '1 minute'",
  );
}

interface AtomEntry {
  id: string;
  title: string;
  summary: { "#text": string };
  content: { "#text": string };
  category: unknown;
  updated: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ["Listing", "ListingPhoto", "entry", "link"].includes(name),
});

/** A feed's XML: well-formed by the strict validator, then parsed. */
function parseXml(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  return parser.parse(text);
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(dbTargets)("listing feeds on $name", (target) => {
  let t: TestApp;
  let cleanup: () => Promise<void>;
  let snapshots = 0;
  let admin = "";

  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    // Counts the feeds' one query, to show that it runs once per change, not per request.
    const query = opened.db.query.bind(opened.db);
    opened.db.query = ((sql: string, params?: unknown[]) => {
      if (sql.includes("json_agg")) snapshots++;
      return query(sql, params);
    }) as Db["query"];
    await seed(opened.db);
    t = await startTestApp({ db: opened.db });
    admin = await t.signIn("boss@example.com", { admin: true });
  });
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${t.base}${path}`, { headers: { "user-agent": "ZillowFeedBot/1.0", ...headers } });

  it("writes /feeds/hotpads.xml: one Company, then each available property that has what HotPads requires", async () => {
    const res = await get("/feeds/hotpads.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const text = await res.text();
    expect(text).toContain("&amp;");
    expect(text).toContain("&lt;Sons&gt;");
    const { hotPadsItems } = parseXml(text);
    expect(hotPadsItems["@_version"]).toBe("2.1");
    const host = new URL(t.base).host;
    expect(hotPadsItems.Company).toEqual({
      "@_id": host,
      name: COMPANY,
      website: `${t.base}/`,
      city: "Falls Church",
      state: "VA",
      CompanyLogo: { "@_source": `${t.base}/logo.svg` },
    });
    const listings = hotPadsItems.Listing as Record<string, unknown>[];
    expect(listings).toHaveLength(1);
    const id = listingKey(COMPLETE);
    expect(listings[0]).toEqual({
      "@_id": id,
      "@_type": "RENTAL",
      "@_companyId": host,
      "@_propertyType": "HOUSE",
      street: { "@_hide": "false", "#text": COMPLETE },
      city: "Arlington & Co",
      state: "VA",
      zip: "22201",
      contactName: COMPANY,
      contactEmail: "office+feeds@example.com",
      contactPhone: "703-555-0100",
      previewMessage: "Near <the> park & shops",
      description: `${TRICKY}\nSecond line & more.`,
      website: `${t.base}/properties/${encodeURIComponent(id)}`,
      ListingPhoto: [
        { "@_source": new URL(photo(id, 0), t.base).href, caption: `Front & "porch" <east> Été` },
        { "@_source": new URL(photo(id, 1), t.base).href },
      ],
      price: "2500",
      pricingFrequency: "MONTHLY",
      numBedrooms: "3",
      numFullBaths: "2",
      numHalfBaths: "1",
      squareFeet: "1450",
      dateAvailable: "2027-03-01",
      pets: "Cats and dogs allowed",
    });
  });

  it("writes /feeds/listings.json: every public listing of both kinds, prices only where the page shows them", async () => {
    const res = await get("/feeds/listings.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const feed = await res.json();
    expect(feed).toMatchObject({
      version: 1,
      home_page_url: `${t.base}/`,
      feed_url: `${t.base}/feeds/listings.json`,
      company: {
        name: COMPANY,
        email: "office+feeds@example.com",
        phone: "703-555-0100",
        city: "Falls Church",
        state: "VA",
      },
      count: 6,
    });
    const byAddress = new Map(
      (feed.listings as { address: string }[]).map((l) => [
        l.address,
        l as Record<string, unknown>,
      ]),
    );
    expect([...byAddress.keys()].sort()).toEqual(
      [COMPLETE, NO_ZIP, NO_PHOTOS, TAKEN, BEACH, BUILDING].sort(),
    );
    const id = listingKey(COMPLETE);
    expect(byAddress.get(COMPLETE)).toEqual({
      kind: "property",
      id,
      url: `${t.base}/properties/${encodeURIComponent(id)}`,
      address: COMPLETE,
      city: "Arlington & Co",
      state: "VA",
      zip: "22201",
      property_type: "Residential",
      bedrooms: 3,
      bathrooms: 2.5,
      square_feet: 1450,
      summary: "Near <the> park & shops",
      description: `${TRICKY}\nSecond line & more.`,
      photos: [
        { url: new URL(photo(id, 0), t.base).href, caption: `Front & "porch" <east> Été` },
        { url: new URL(photo(id, 1), t.base).href, caption: null },
      ],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      available: true,
      price: "2500",
      rent: 2500,
      reserve_url: null,
      pets: "cats-and-dogs",
      available_from: "2027-03-01",
    });
    // Not available: its page shows no price, so neither does the feed.
    expect(byAddress.get(TAKEN)).toMatchObject({ available: false, price: null, rent: null });
    expect(JSON.stringify(feed)).not.toContain("9999");
    expect(byAddress.get(BEACH)).toMatchObject({
      reserve_url: "https://reserve.example/beach?a=1&b=2",
    });
    expect(byAddress.get(NO_PHOTOS)).toMatchObject({ price: "Call us", rent: null, photos: [] });
    const building = byAddress.get(BUILDING) as Record<string, unknown>;
    expect(building.kind).toBe("construction");
    expect(building.url).toBe(`${t.base}/new-construction/${listingKey(BUILDING)}`);
    for (const key of ["available", "price", "rent", "reserve_url", "pets", "available_from"]) {
      expect(building, key).not.toHaveProperty(key);
    }
  });

  it("writes /feeds/new-listings.xml: Atom, newest first", async () => {
    const res = await get("/feeds/new-listings.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const { feed } = parseXml(await res.text());
    expect(feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.title).toBe(`New listings | ${COMPANY}`);
    expect(feed.id).toBe(`${t.base}/feeds/new-listings.xml`);
    expect(feed.link).toEqual([
      { "@_rel": "self", "@_href": `${t.base}/feeds/new-listings.xml` },
      { "@_rel": "alternate", "@_type": "text/html", "@_href": `${t.base}/` },
    ]);
    expect(feed.author.name).toBe(COMPANY);
    const entries = feed.entry as AtomEntry[];
    // Inserted in this order, so the newest (the construction) comes first.
    expect(entries.map((e) => e.id)).toEqual(
      [BUILDING, BEACH, TAKEN, NO_PHOTOS, NO_ZIP]
        .map((a) =>
          a === BUILDING
            ? `${t.base}/new-construction/${listingKey(a)}`
            : `${t.base}/properties/${listingKey(a)}`,
        )
        .concat(`${t.base}/properties/${encodeURIComponent(listingKey(COMPLETE))}`),
    );
    const complete = entries.at(-1) as AtomEntry;
    expect(complete.title).toBe(`${COMPLETE}, Arlington & Co, VA 22201`);
    expect(complete.summary).toEqual({
      "@_type": "text",
      "#text": "Property · 3 Bedrooms | 2.5 Bathrooms · $2,500 · Near <the> park & shops",
    });
    expect(complete.content["#text"]).toBe(`${TRICKY}\nSecond line & more.`);
    expect(complete.category).toEqual({ "@_term": "properties", "@_label": "Property" });
    expect(complete.updated).toMatch(/Z$/);
    const taken = entries.find((e) => e.title.startsWith(TAKEN)) as AtomEntry;
    expect(taken.summary["#text"]).not.toContain("9,999");
  });

  it("answers a reader that has the feed with 304, and HEAD without a body", async () => {
    for (const path of ["/feeds/hotpads.xml", "/feeds/listings.json", "/feeds/new-listings.xml"]) {
      const first = await get(path);
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get("cache-control"), path).toBe("public, no-cache");
      const again = await get(path, { "if-none-match": etag as string });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe("");
      const head = await fetch(`${t.base}${path}`, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(head.headers.get("etag"), path).toBe(etag);
    }
  });

  it("reads the data once per change, however often the feeds are asked for", async () => {
    await get("/feeds/hotpads.xml");
    const before = snapshots;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        get(
          ["/feeds/hotpads.xml", "/feeds/listings.json", "/feeds/new-listings.xml"][
            i % 3
          ] as string,
        ),
      ),
    );
    // At most one more: the kept copy may just have passed its 10 seconds.
    expect(snapshots - before).toBeLessThanOrEqual(1);
  });

  it("shows a change within 10 seconds, with a new ETag", async () => {
    const first = await get("/feeds/hotpads.xml");
    const etag = first.headers.get("etag");
    const id = listingKey(NO_ZIP);
    await t.db.query(
      "UPDATE listings SET zip = '22203' WHERE collection = 'properties' AND id = $1",
      [id],
    );
    const started = Date.now();
    const text = await until(
      () => get("/feeds/hotpads.xml").then((r) => r.text()),
      (body) => body.includes(NO_ZIP),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const listings = parseXml(text).hotPadsItems.Listing as { street: { "#text": string } }[];
    expect(listings.map((l) => l.street["#text"]).sort()).toEqual([COMPLETE, NO_ZIP].sort());
    expect((await get("/feeds/hotpads.xml")).headers.get("etag")).not.toBe(etag);
    // A change of the site settings shows too.
    await t.db.query(
      `UPDATE site_settings SET content = jsonb_set(content, '{office,phone}', '"703-555-0999"') WHERE id`,
    );
    const changed = await until(
      () => get("/feeds/hotpads.xml").then((r) => r.text()),
      (body) => body.includes("703-555-0999"),
    );
    expect(changed).toContain("<contactPhone>703-555-0999</contactPhone>");
  });

  it("records each fetch (feed, time, user agent, count) in one row per feed, not for admins", async () => {
    await get("/feeds/listings.json", { "user-agent": "Reader <&> 2.0" });
    const before = await t.db.query<{ feed: string; fetches: string }>(
      "SELECT feed, fetches::text FROM feed_fetches ORDER BY feed",
    );
    expect(before.map((r) => r.feed)).toEqual(["hotpads", "listings-json", "new-listings"]);
    const [json] = await t.db.query<{ user_agent: string; listing_count: number }>(
      "SELECT user_agent, listing_count FROM feed_fetches WHERE feed = 'listings-json'",
    );
    expect(json).toEqual({ user_agent: "Reader <&> 2.0", listing_count: 6 });
    await get("/feeds/listings.json", { cookie: admin });
    const after = await t.db.query<{ feed: string; fetches: string }>(
      "SELECT feed, fetches::text FROM feed_fetches ORDER BY feed",
    );
    expect(after).toEqual(before);
  });

  it("shows /admin/feeds to admins: URLs, counts, fetches, what is left out and why, a 20% warning", async () => {
    const page = async () => {
      const res = await get("/admin/feeds", { cookie: admin });
      expect(res.status).toBe(200);
      // Without React's markers between adjacent texts.
      return (await res.text()).replaceAll("<!-- -->", "");
    };
    // The network last read 2 listings (after the change above); make it 1 more than 20% off.
    await get("/feeds/hotpads.xml", { "user-agent": "ZillowFeedBot/1.0" });
    let html = await page();
    expect(html).toContain("<h1>Listing feeds</h1>");
    for (const path of ["/feeds/hotpads.xml", "/feeds/listings.json", "/feeds/new-listings.xml"]) {
      expect(html).toContain(`href="${t.base}${path}"`);
    }
    expect(html).toMatch(/data-feed="hotpads".*?<td>2<\/td>/s);
    expect(html).toMatch(/data-feed="listings-json".*?<td>6<\/td>/s);
    expect(html).toContain("ZillowFeedBot/1.0");
    expect(html).toContain("Reader &lt;&amp;&gt; 2.0");
    expect(html).toContain("Left out of the HotPads feed");
    expect(html).toContain("2 available properties are left out:");
    expect(html).toContain(
      `${NO_PHOTOS}</a>: no ZIP code, a price that is not a number, no photos</li>`,
    );
    expect(html).toContain(
      `${BEACH}</a>: a vacation rental (the network lists long-term rentals)</li>`,
    );
    expect(html).not.toContain(TAKEN);
    expect(html).not.toContain("The HotPads feed now has");

    await t.db.query("UPDATE listings SET zip = NULL WHERE collection = 'properties' AND id = $1", [
      listingKey(NO_ZIP),
    ]);
    html = await until(page, (h) => h.includes("The HotPads feed now has"));
    expect(html).toContain(
      "The HotPads feed now has 1 listing; it had 2 when it was last fetched (−50%).",
    );
  });

  it("is public for everyone but the admin page, which is the 404 page for anyone else", async () => {
    expect((await get("/admin/feeds")).status).toBe(404);
    const member = await t.signIn("member@example.com");
    expect((await get("/admin/feeds", { cookie: member })).status).toBe(404);
    expect((await get("/feeds/hotpads.xml", { cookie: member })).status).toBe(200);
  });
});

describe("the Atom feed's 50", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    for (let i = 1; i <= 55; i++) {
      await insertListing(t.db, "newConstruction", `build-${i}`, {
        ...base,
        address: `${i} Build Street`,
        price: null,
        currently_available: null,
        pets: null,
        available_from: null,
      });
    }
    // One a day: two inserts may share a clock tick.
    await t.db.query(
      "UPDATE listings SET created_at = now() - (60 - substr(id, 7)::int) * interval '1 day'",
    );
  });
  afterAll(async () => t?.close());

  it("holds the newest 50 listings, newest first", async () => {
    const { feed } = parseXml(await (await fetch(`${t.base}/feeds/new-listings.xml`)).text());
    const titles = (feed.entry as { title: string }[]).map((e) => e.title.split(" ")[0]);
    expect(titles).toEqual(Array.from({ length: 50 }, (_, i) => String(55 - i)));
  });
});
