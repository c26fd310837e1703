// Users keyed by issuer AND sub (migration 0008): the same sub from two issuers is two
// people, and rows from before 0008 are claimed by the next sign-in of their sub.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Db, migrate, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { bindAdminGrants, grantAdmin, isAdmin, listAdmins, revokeAdmin } from "./admins.server";
import { createSession, findSessionUser } from "./sessions.server";
import { claimLegacyUser, upsertUser, userFromClaims } from "./users.server";
import type { SessionUser } from "./viewer";

const config = readEnv({ NODE_ENV: "development" }).session;
const GOOGLE = "https://accounts.google.com";
const OTHER = "https://id.other.example";
const person = (issuer: string, sub: string, email: string): SessionUser => ({
  issuer,
  sub,
  email,
  emailVerified: true,
  name: email,
});

/** Sign-in's database steps, as /auth/callback runs them. */
async function signIn(db: Db, user: SessionUser) {
  return db.transaction(async (tx) => {
    await claimLegacyUser(tx, user);
    await upsertUser(tx, user);
    await bindAdminGrants(tx, user);
    return createSession(tx, user, config);
  });
}

describe.each(dbTargets)("users by issuer and sub on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec("DELETE FROM admins; DELETE FROM sessions; DELETE FROM users;");
  });

  it("takes the issuer from the claims and refuses claims without one", () => {
    expect(userFromClaims({ iss: GOOGLE, sub: "1" })).toMatchObject({ issuer: GOOGLE, sub: "1" });
    expect(() => userFromClaims({ sub: "1" })).toThrow("no usable issuer (iss)");
  });

  it("keeps the same sub from two issuers as two users, each with their own session", async () => {
    const ann = person(GOOGLE, "1", "ann@example.com");
    const bob = person(OTHER, "1", "bob@example.com");
    const annSession = await signIn(db, ann);
    const bobSession = await signIn(db, bob);
    const rows = await db.query<{ issuer: string; email: string }>(
      "SELECT issuer, email FROM users ORDER BY issuer",
    );
    expect(rows).toEqual([
      { issuer: GOOGLE, email: "ann@example.com" },
      { issuer: OTHER, email: "bob@example.com" },
    ]);
    expect(await findSessionUser(db, annSession.token, config)).toEqual(ann);
    expect(await findSessionUser(db, bobSession.token, config)).toEqual(bob);
  });

  it("makes a grant bound to one issuer's sub no grant for the same sub at another issuer", async () => {
    await grantAdmin(db, "ann@example.com", "test");
    const ann = person(GOOGLE, "1", "ann@example.com");
    await signIn(db, ann);
    const [grant] = await listAdmins(db);
    expect(grant).toMatchObject({ email: "ann@example.com", uid: "1", name: "ann@example.com" });
    expect(await isAdmin(db, ann)).toBe(true);
    expect(await isAdmin(db, { ...person(OTHER, "1", "eve@example.com") })).toBe(false);
    // A grant by sub (decision 0011) names the issuer it was bound under.
    await db.query("INSERT INTO admins (uid, uid_issuer) VALUES ('7', $1)", [GOOGLE]);
    expect(await isAdmin(db, person(GOOGLE, "7", "x@example.com"))).toBe(true);
    expect(await isAdmin(db, person(OTHER, "7", "x@example.com"))).toBe(false);
    // Revoking by address removes the grant bound to that issuer's user only.
    await grantAdmin(db, "keeper@example.com");
    expect(await revokeAdmin(db, "ann@example.com", [])).toBe(1);
    expect(await isAdmin(db, ann)).toBe(false);
  });

  it("lets a grant by sub made by hand (no issuer) be claimed by that sub's next sign-in", async () => {
    await db.query("INSERT INTO admins (uid) VALUES ('42')");
    const staff = person(GOOGLE, "42", "staff@example.com");
    expect(await isAdmin(db, staff)).toBe(false);
    await signIn(db, staff);
    expect(await isAdmin(db, staff)).toBe(true);
    expect(await isAdmin(db, person(OTHER, "42", "staff@example.com"))).toBe(false);
  });
});

describe("migration 0008 on data from before it", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://", migrate: false });
    await migrate(db, undefined, { until: "0007_listing_history.sql" });
    const now = new Date();
    await db.query(
      `INSERT INTO users (sub, email, email_verified, name, created_at, last_login_at)
       VALUES ('old-1', 'old@example.com', true, 'Old', $1, $1)`,
      [now],
    );
    await db.query(
      `INSERT INTO sessions (id, user_sub, created_at, last_seen_at, expires_at)
       VALUES ($1, 'old-1', $2, $2, $3)`,
      ["a".repeat(64), now, new Date(now.getTime() + 3_600_000)],
    );
    await db.query("INSERT INTO admins (uid, granted_by) VALUES ('old-1', 'sql')");
    await db.query("INSERT INTO admins (email, uid) VALUES ('boss@example.com', 'old-1')");
    await migrate(db);
  });
  afterAll(async () => db?.close());

  it("gives the old rows the placeholder issuer '' and keeps their session and grants", async () => {
    const [row] = await db.query<{ issuer: string; sub: string }>("SELECT issuer, sub FROM users");
    expect(row).toEqual({ issuer: "", sub: "old-1" });
    const [session] = await db.query<{ user_issuer: string }>("SELECT user_issuer FROM sessions");
    expect(session?.user_issuer).toBe("");
    expect(await isAdmin(db, person("", "old-1", "old@example.com"))).toBe(true);
  });

  it("lets the next sign-in of that sub claim the user, its session and its grants", async () => {
    const old = person(GOOGLE, "old-1", "old@example.com");
    await signIn(db, old);
    const users = await db.query<{ issuer: string; email: string }>(
      "SELECT issuer, email FROM users",
    );
    expect(users).toEqual([{ issuer: GOOGLE, email: "old@example.com" }]);
    const sessions = await db.query<{ user_issuer: string }>(
      "SELECT user_issuer FROM sessions ORDER BY created_at",
    );
    expect(sessions.map((s) => s.user_issuer)).toEqual([GOOGLE, GOOGLE]);
    const grants = await db.query<{ uid_issuer: string }>("SELECT uid_issuer FROM admins");
    expect(grants.map((g) => g.uid_issuer)).toEqual([GOOGLE, GOOGLE]);
    expect(await isAdmin(db, { ...old, emailVerified: false })).toBe(true);
    expect(await isAdmin(db, person(OTHER, "old-1", "nobody@example.com"))).toBe(false);
  });
});
