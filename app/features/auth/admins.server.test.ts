import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import {
  bindAdminGrants,
  grantAdmin,
  grantAdminEmails,
  isAdmin,
  LastAdminError,
  listAdmins,
  revokeAdmin,
  setStaffRole,
  staffRoleOf,
} from "./admins.server";
import { InvalidEmailError } from "./emails";
import { upsertUser } from "./users.server";
import type { SessionUser } from "./viewer";

const ISSUER = "https://id.example";
const user = (
  sub: string,
  email: string | null,
  emailVerified = true,
  name: string | null = null,
): SessionUser => ({
  issuer: ISSUER,
  sub,
  email,
  emailVerified,
  name,
});

describe.each(dbTargets)("admin registry on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec("DELETE FROM admins; DELETE FROM sessions; DELETE FROM users;");
  });

  it("nobody is admin without a grant, and null is never admin", async () => {
    expect(await isAdmin(db, null)).toBe(false);
    expect(await isAdmin(db, user("u1", "a@example.com"))).toBe(false);
  });

  it("a grant by email works before the first sign-in, normalised", async () => {
    expect(await grantAdmin(db, "  New.Admin@Example.COM ", "tester")).toBe(true);
    expect(await isAdmin(db, user("u-new", "new.admin@example.com"))).toBe(true);
    // The address from the provider may be spelled differently.
    expect(await isAdmin(db, user("u-new", "NEW.ADMIN@example.com"))).toBe(true);
    const [grant] = await listAdmins(db);
    expect(grant).toMatchObject({
      email: "new.admin@example.com",
      uid: null,
      name: null,
      grantedBy: "tester",
    });
    expect(new Date(grant?.grantedAt ?? "").toISOString()).toBe(grant?.grantedAt);
  });

  it("only a VERIFIED email counts", async () => {
    await grantAdmin(db, "boss@example.com");
    expect(await isAdmin(db, user("u-fake", "boss@example.com", false))).toBe(false);
    // Binding ignores unverified addresses too.
    await bindAdminGrants(db, user("u-fake", "boss@example.com", false));
    expect((await listAdmins(db))[0]?.uid).toBeNull();
  });

  it("binds the grant to the uid at sign-in, which then names the user", async () => {
    await grantAdmin(db, "boss@example.com");
    const boss = user("u-boss", "boss@example.com", true, "Pat Boss");
    await upsertUser(db, boss);
    await bindAdminGrants(db, boss);
    expect(await listAdmins(db)).toEqual([
      expect.objectContaining({ email: "boss@example.com", uid: "u-boss", name: "Pat Boss" }),
    ]);
    // Bound: still admin after changing the address at the provider.
    expect(await isAdmin(db, user("u-boss", "pat@elsewhere.example"))).toBe(true);
  });

  it("binds at once when a user with that verified address already exists", async () => {
    await upsertUser(db, user("u-known", "known@example.com", true, "Known"));
    await upsertUser(db, user("u-unverified", "unverified@example.com", false));
    await grantAdmin(db, "known@example.com");
    await grantAdmin(db, "unverified@example.com");
    const grants = await listAdmins(db);
    expect(grants.find((g) => g.email === "known@example.com")?.uid).toBe("u-known");
    expect(grants.find((g) => g.email === "unverified@example.com")?.uid).toBeNull();
  });

  it("honours a grant by uid (the spec's admins/{uid}) whatever the email", async () => {
    await db.query("INSERT INTO admins (uid, uid_issuer) VALUES ('u-by-uid', $1)", [ISSUER]);
    expect(await isAdmin(db, user("u-by-uid", null, false))).toBe(true);
    expect(await isAdmin(db, user("u-other", null, false))).toBe(false);
  });

  it("granting twice is harmless; ADMIN_EMAILS at start is idempotent", async () => {
    expect(await grantAdmin(db, "a@example.com")).toBe(true);
    expect(await grantAdmin(db, "A@example.com")).toBe(false);
    expect(await grantAdminEmails(db, ["a@example.com", "b@example.com", "B@example.com"])).toEqual(
      ["b@example.com"],
    );
    expect(await grantAdminEmails(db, ["a@example.com", "b@example.com"])).toEqual([]);
    const grants = await listAdmins(db);
    expect(grants.map((g) => [g.email, g.grantedBy])).toEqual([
      ["a@example.com", null],
      ["b@example.com", "ADMIN_EMAILS"],
    ]);
  });

  it("rejects invalid emails clearly, and ADMIN_EMAILS with one bad entry grants nothing", async () => {
    for (const bad of [
      "",
      "plain",
      "a@b",
      "two@@example.com",
      "sp ace@example.com",
      `${"x".repeat(250)}@e.com`,
    ]) {
      await expect(grantAdmin(db, bad)).rejects.toBeInstanceOf(InvalidEmailError);
    }
    await expect(grantAdmin(db, "nope")).rejects.toThrow('Invalid email address: "nope".');
    await expect(revokeAdmin(db, "nope", [])).rejects.toBeInstanceOf(InvalidEmailError);
    await expect(grantAdminEmails(db, ["ok@example.com", "broken"])).rejects.toBeInstanceOf(
      InvalidEmailError,
    );
    expect(await listAdmins(db)).toEqual([]);
  });

  it("revokes, reports unknown addresses, and refuses to remove the last admin", async () => {
    await grantAdmin(db, "one@example.com");
    await grantAdmin(db, "two@example.com");
    expect(await revokeAdmin(db, "nobody@example.com", [])).toBe(0);
    expect(await revokeAdmin(db, "ONE@example.com", [])).toBe(1);
    expect(await isAdmin(db, user("u1", "one@example.com"))).toBe(false);

    const refusal = revokeAdmin(db, "two@example.com", []);
    await expect(refusal).rejects.toBeInstanceOf(LastAdminError);
    await expect(revokeAdmin(db, "two@example.com", [])).rejects.toThrow(
      "Cannot remove or demote the last Owner.",
    );
    // Nothing changed.
    expect((await listAdmins(db)).map((g) => g.email)).toEqual(["two@example.com"]);
    expect(await isAdmin(db, user("u2", "two@example.com"))).toBe(true);
  });

  it("refuses to revoke an address listed in ADMIN_EMAILS (it would come back at the next start)", async () => {
    await grantAdminEmails(db, ["listed@example.com"]);
    await grantAdmin(db, "other@example.com");
    await upsertUser(db, user("u-listed", "listed@example.com"));
    await bindAdminGrants(db, user("u-listed", "listed@example.com"));
    const before = await listAdmins(db);
    await expect(revokeAdmin(db, " Listed@Example.COM ", ["listed@example.com"])).rejects.toThrow(
      "Cannot revoke listed@example.com: it is listed in ADMIN_EMAILS, which grants admin again at every start. Remove it from ADMIN_EMAILS and restart the server first.",
    );
    expect(await listAdmins(db)).toEqual(before);
    expect(await isAdmin(db, user("u-listed", "listed@example.com"))).toBe(true);
    // Addresses not listed there are revoked as usual.
    expect(await revokeAdmin(db, "other@example.com", ["listed@example.com"])).toBe(1);
  });

  it("revoking an address also removes grants bound to the user with that address", async () => {
    await grantAdmin(db, "keeper@example.com");
    await upsertUser(db, user("u-mover", "new@example.com", true));
    await db.query("INSERT INTO admins (uid, uid_issuer) VALUES ('u-mover', $1)", [ISSUER]);
    expect(await revokeAdmin(db, "new@example.com", [])).toBe(1);
    expect(await isAdmin(db, user("u-mover", "new@example.com"))).toBe(false);
  });

  it("two revocations at once never leave the site without an admin", async () => {
    await grantAdmin(db, "x@example.com");
    await grantAdmin(db, "y@example.com");
    const results = await Promise.allSettled([
      revokeAdmin(db, "x@example.com", []),
      revokeAdmin(db, "y@example.com", []),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect((rejected as PromiseRejectedResult).reason).toBeInstanceOf(LastAdminError);
    expect(await listAdmins(db)).toHaveLength(1);
  });

  it("waits for a revocation in flight before counting what is left", async () => {
    await grantAdmin(db, "x@example.com");
    await grantAdmin(db, "y@example.com");
    // Another revocation, past its own checks, not yet committed.
    let deleted!: () => void;
    const hasDeleted = new Promise<void>((resolve) => {
      deleted = resolve;
    });
    const inFlight = db.transaction(async (tx) => {
      await tx.query("DELETE FROM admins WHERE email = 'x@example.com'");
      deleted();
      // PGlite has one connection: the second revocation queues behind this transaction, so
      // it cannot count before the commit. On a server it must be seen waiting for the table
      // lock before this transaction commits, or the test proves nothing.
      if (target.name === "postgres") {
        await expect
          .poll(async () => {
            const [row] = await tx.query<{ waiting: number }>(
              `SELECT count(*)::int AS waiting FROM pg_locks
               WHERE NOT granted AND relation = 'admins'::regclass`,
            );
            return row?.waiting;
          })
          .toBe(1);
      }
    });
    await hasDeleted;
    const second = revokeAdmin(db, "y@example.com", []);
    second.catch(() => undefined);
    await inFlight;
    await expect(second).rejects.toBeInstanceOf(LastAdminError);
    expect((await listAdmins(db)).map((g) => g.email)).toEqual(["y@example.com"]);
  });

  it("lists grants with email, uid, name, time and grantor, sorted by email", async () => {
    await grantAdmin(db, "zed@example.com", "admin@example.com");
    await upsertUser(db, user("u-amy", "amy@example.com", true, "Amy"));
    await grantAdmin(db, "amy@example.com");
    await upsertUser(db, user("u-uid", "uidonly@example.com", true, "Uid Only"));
    await db.query("INSERT INTO admins (uid, uid_issuer, granted_by) VALUES ('u-uid', $1, 'sql')", [
      ISSUER,
    ]);
    expect(await listAdmins(db)).toEqual([
      {
        email: "amy@example.com",
        uid: "u-amy",
        name: "Amy",
        grantedAt: expect.any(String),
        grantedBy: null,
        role: "owner",
        lastSignedInAt: expect.any(String),
      },
      {
        email: "uidonly@example.com",
        uid: "u-uid",
        name: "Uid Only",
        grantedAt: expect.any(String),
        grantedBy: "sql",
        role: "owner",
        lastSignedInAt: expect.any(String),
      },
      {
        email: "zed@example.com",
        uid: null,
        name: null,
        grantedAt: expect.any(String),
        grantedBy: "admin@example.com",
        role: "owner",
        lastSignedInAt: null,
      },
    ]);
  });

  it("gives each grant a role, and a person with two grants the lesser one", async () => {
    await grantAdmin(db, "owner@example.com");
    await grantAdmin(db, "agent@example.com", "test", "leasing-agent");
    expect(await staffRoleOf(db, user("u-o", "owner@example.com"))).toBe("owner");
    expect(await staffRoleOf(db, user("u-a", "agent@example.com"))).toBe("leasing-agent");
    expect(await staffRoleOf(db, user("u-n", "nobody@example.com"))).toBeNull();
    // A uid grant made by hand (the spec's admins/{uid}) is an Owner's; with a Viewer's grant
    // by e-mail beside it, the person is a Viewer.
    await db.query("INSERT INTO admins (uid, uid_issuer) VALUES ('u-v', $1)", [ISSUER]);
    expect(await staffRoleOf(db, user("u-v", "v@example.com"))).toBe("owner");
    await grantAdmin(db, "v@example.com", "test", "viewer");
    expect(await staffRoleOf(db, user("u-v", "v@example.com"))).toBe("viewer");
  });

  it("changes roles, never leaving the site without an Owner, even when two try at once", async () => {
    await grantAdmin(db, "a@example.com");
    await grantAdmin(db, "b@example.com");
    expect(await setStaffRole(db, "nobody@example.com", "viewer")).toBe(0);
    // Both Owners demote each other at the same moment: one of them must be refused.
    const both = await Promise.allSettled([
      setStaffRole(db, "a@example.com", "manager"),
      setStaffRole(db, "b@example.com", "manager"),
    ]);
    expect(both.filter((r) => r.status === "rejected")).toHaveLength(1);
    const roles = (await listAdmins(db)).map((g) => g.role).sort();
    expect(roles).toEqual(["manager", "owner"]);
    const owner = (await listAdmins(db)).find((g) => g.role === "owner")?.email ?? "";
    await expect(setStaffRole(db, owner, "viewer")).rejects.toBeInstanceOf(LastAdminError);
    await expect(revokeAdmin(db, owner, [])).rejects.toThrow(
      "Cannot remove or demote the last Owner.",
    );
    // A Manager may go, and an Owner stays an Owner when "changed" to Owner.
    const manager = (await listAdmins(db)).find((g) => g.role === "manager")?.email ?? "";
    expect(await revokeAdmin(db, manager, [])).toBe(1);
    expect(await setStaffRole(db, owner, "owner")).toBe(1);
  });
});
