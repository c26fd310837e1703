// The one list of features (docs/architecture.md, "The feature contract"): every table has an
// owner that says whether backups carry it, the scheduler gets every feature's jobs, and
// 'Erase this person' reaches every feature's part, on both databases.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlert } from "~/features/alerts/index.server";
import { deriveDataKeys, startApplication } from "~/features/applications/index.server";
import { DiskImageStore } from "~/features/images/index.server";
import { storeLead } from "~/features/leads/leads.server";
import { TEST_LEAD_MAIL } from "~/features/leads/test-lead-mail";
import { bookShowing } from "~/features/showings/index.server";
import type { Db } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { dbTargets } from "../tests/support/db-targets";
import {
  erasePerson,
  FEATURES,
  featureJobs,
  featureLimits,
  notBackedUpTables,
  type SiteServices,
} from "./features";

const migrations = path.resolve(import.meta.dirname, "../db/migrations");

/** Every table the migrations create and do not drop again. */
function migratedTables(): string[] {
  const tables = new Set<string>();
  for (const file of fs.readdirSync(migrations).sort()) {
    const sql = fs.readFileSync(path.join(migrations, file), "utf8");
    for (const m of sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi))
      tables.add(m[1] as string);
    for (const m of sql.matchAll(/DROP TABLE (?:IF EXISTS )?(\w+)/gi))
      tables.delete(m[1] as string);
  }
  return [...tables].sort();
}

/**
 * Where a feature's SQL reads a table another feature owns, and why (docs/architecture.md,
 * "The feature contract"): joins that one statement needs. Anything else asks the owner.
 */
const READS_OF_OTHERS: Record<string, string> = {
  "alerts → listings":
    "which alerts' listings became available, and which listings match a search, in the statement that takes the alerts",
  "applications → users": "the audit keeps the staff member's sign-in subject, found by e-mail",
  "feeds → listings": "a feed is one snapshot of the listings and the company, in one statement",
  "feeds → site_settings": "(the same snapshot)",
  "site-settings → listings": "the featured list is joined to the listings it names",
};

/** Every `FROM`, `JOIN`, `INTO` or `UPDATE` of a table in app/ outside shared/ and domain/. */
function sqlTouches(): { who: string; table: string }[] {
  const app = path.resolve(import.meta.dirname, "../app");
  const touches: { who: string; table: string }[] = [];
  for (const file of fs.readdirSync(app, { recursive: true, encoding: "utf8" })) {
    const parts = file.split(path.sep);
    if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
    if (parts[0] === "shared" || parts[0] === "domain") continue;
    const who = parts[0] === "features" ? (parts[1] as string) : "routes";
    const source = fs.readFileSync(path.join(app, file), "utf8");
    for (const m of source.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g)) {
      touches.push({ who, table: m[1] as string });
    }
  }
  return touches;
}

describe("the feature list", () => {
  it("lets each feature's SQL touch its own tables only, but for the joins listed", () => {
    const owner = new Map<string, string>();
    for (const feature of FEATURES) {
      for (const table of feature.tables) owner.set(table, feature.name);
      for (const { table } of feature.notBackedUp ?? []) owner.set(table, feature.name);
    }
    const touches = sqlTouches();
    expect(touches.length).toBeGreaterThan(100);
    const others = new Set(
      touches
        .filter(({ who, table }) => owner.has(table) && owner.get(table) !== who)
        .map(({ who, table }) => `${who} → ${table}`),
    );
    expect([...others].sort()).toEqual(Object.keys(READS_OF_OTHERS).sort());
  });

  it("gives each form's per-client limit its own count: the public forms' at INQUIRY_RATE_LIMIT", () => {
    const services = {
      db: {} as Db,
      env: readEnv({ INQUIRY_RATE_LIMIT: "7" }),
      images: new DiskImageStore(os.tmpdir()),
      applications: { key: null, vault: null },
    } satisfies SiteServices;
    expect(Object.fromEntries(featureLimits(services))).toEqual({
      inquiry: 7,
      showing: 7,
      alert: 7,
      application: 7,
      // 'E-mail me a code' and 'Sign in' on /sign-in, together (docs/behaviour.md §6).
      "sign-in-code": 30,
    });
  });

  it("gives every table the migrations create to exactly one feature, carried or not", () => {
    const owners = new Map<string, string[]>();
    for (const feature of FEATURES) {
      const owned = [...feature.tables, ...(feature.notBackedUp ?? []).map((t) => t.table)];
      for (const table of owned) owners.set(table, [...(owners.get(table) ?? []), feature.name]);
    }
    const tables = migratedTables();
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((t) => !owners.has(t))).toEqual([]);
    expect([...owners.keys()].filter((t) => !tables.includes(t))).toEqual([]);
    expect([...owners].filter(([, names]) => names.length > 1)).toEqual([]);
  });

  it("leaves out of backups only the scheduler's record, the rate counters and sign-in secrets", () => {
    expect(notBackedUpTables().sort()).toEqual([
      "job_runs",
      "passkey_challenges",
      "rate_counters",
      "sign_in_codes",
    ]);
  });

  it("hands the scheduler every feature's periodic job, each name once", () => {
    const services = {
      db: {} as Db,
      env: readEnv({}),
      images: new DiskImageStore(os.tmpdir()),
      applications: { key: null, vault: null },
    } satisfies SiteServices;
    const names = featureJobs(services).map((job) => job.name);
    expect(names.sort()).toEqual([
      "activity.retention",
      "alerts.digest",
      "alerts.due",
      "applications.retention",
      "leads.purge",
      "listings.deleted-purge",
      "listings.stale-digest",
      "listings.storage-sweep",
      "showings.purge",
    ]);
  });
});

for (const target of dbTargets) {
  describe(`'Erase this person' over every feature (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let services: SiteServices;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
      services = {
        db,
        env: readEnv({}),
        images: new DiskImageStore(fs.mkdtempSync(path.join(os.tmpdir(), "erase-images-"))),
        applications: { key: deriveDataKeys(randomBytes(32), null), vault: null },
      };
    });
    afterAll(async () => cleanup?.());

    const keep = async (email: string) => {
      const key = services.applications.key;
      if (!key) throw new Error("a data key");
      await storeLead(
        db,
        {
          collection: null,
          listingId: null,
          listingAddress: null,
          values: { name: "Tia", email, phone: "", message: "Hello", showing: false, times: [] },
        },
        TEST_LEAD_MAIL,
      );
      await createAlert(
        db,
        email,
        { kind: "search", collection: "properties", search: new URLSearchParams("beds=2") },
        { publicUrl: "https://rent.example.com" },
      );
      await startApplication(db, key, {
        listing: { collection: "properties", id: "12-lead-lane", address: "12 Lead Lane" },
        answers: { fullName: "Tia Renter", email },
        step: "review",
        now: new Date(),
      });
      await bookShowing(
        db,
        {
          listing: { collection: "properties", id: "12-lead-lane", address: "12 Lead Lane" },
          start: new Date("2027-03-01T15:00:00Z"),
          end: new Date("2027-03-01T15:30:00Z"),
          person: { name: "Tia", email, phone: "", moveIn: null, people: null },
        },
        { visitorsPerSlot: 2 },
      );
      // An e-mail that answers the person, kept for a reason none of the above owns.
      await db.query(
        `INSERT INTO outbox (kind, to_addresses, reply_to, subject, body) VALUES ('inquiry', ARRAY['office@example.com'], $1, 's', 'b')`,
        [email],
      );
    };
    const count = async (sql: string, email: string) =>
      (await db.query<{ n: number }>(sql, [email]))[0]?.n;
    const kept = async (email: string) => ({
      leads: await count("SELECT count(*)::int AS n FROM leads WHERE lower(email) = $1", email),
      alerts: await count(
        "SELECT count(*)::int AS n FROM listing_alerts WHERE lower(email) = $1",
        email,
      ),
      mail: await count(
        `SELECT count(*)::int AS n FROM outbox WHERE lower(coalesce(reply_to, '')) = $1 OR $1 = ANY(to_addresses)`,
        email,
      ),
      showings: await count(
        "SELECT count(*)::int AS n FROM showings WHERE lower(email) = $1",
        email,
      ),
    });

    it("takes the person's leads, alerts, showings, applications and e-mail; nobody else's", async () => {
      await keep("tia@example.com");
      await keep("other@example.com");
      const applications = () =>
        count("SELECT count(*)::int AS n FROM applications WHERE $1 <> ''", "x");
      expect(await applications()).toBe(2);
      expect(await kept("tia@example.com")).toMatchObject({ leads: 1, alerts: 1, showings: 1 });
      expect((await kept("tia@example.com")).mail).toBeGreaterThan(0);

      const erased = await erasePerson(services, " Tia@Example.com ", { actorId: "staff-sub" });
      expect(erased).toBe(4); // one lead, one alert, one showing, one application
      expect(await kept("tia@example.com")).toEqual({ leads: 0, alerts: 0, mail: 0, showings: 0 });
      expect(await applications()).toBe(1);
      expect(await kept("other@example.com")).toMatchObject({
        leads: 1,
        alerts: 1,
        showings: 1,
      });
    });

    it("erases nothing for an empty address or one with a control character", async () => {
      expect(await erasePerson(services, "  ", { actorId: null })).toBe(0);
      expect(await erasePerson(services, "other\u0000@example.com", { actorId: null })).toBe(0);
      expect(await kept("other@example.com")).toMatchObject({ leads: 1, alerts: 1 });
    });
  });
}
