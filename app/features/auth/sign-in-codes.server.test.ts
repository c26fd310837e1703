// Sign-in by e-mailed code and by the CLI's link (docs/behaviour.md §6, "Staff sign-in"), on
// both databases, with the clock passed in.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { grantAdmin, revokeAdmin, staffRoleOf } from "./admins.server";
import { findSessionUser } from "./sessions.server";
import {
  createSignInLink,
  EMAIL_ISSUER,
  sendSignInCode,
  signInWithCode,
  signInWithLink,
} from "./sign-in-codes.server";

const config = {
  idleMs: 12 * 3_600_000,
  staffIdleMs: 12 * 3_600_000,
  maxMs: 7 * 86_400_000,
  secureCookie: false,
  cookieName: "s",
};
const mail = { company: "Northern Virginia Family Leasing", publicUrl: "https://site.example" };
const at = (minutes: number) => new Date(Date.UTC(2027, 0, 4, 9, 0) + minutes * 60_000);

describe.each(dbTargets)("staff sign-in by code and link on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec(
      "DELETE FROM sign_in_codes; DELETE FROM outbox; DELETE FROM sessions; DELETE FROM admins",
    );
    await grantAdmin(db, "agent@example.com", "test", "leasing-agent");
    await grantAdmin(db, "owner@example.com");
  });

  /** The code in the latest e-mail to `to`. */
  async function codeFor(to: string) {
    const rows = await db.query<{ subject: string; body: string }>(
      "SELECT subject, body FROM outbox WHERE $1 = ANY(to_addresses) ORDER BY id DESC LIMIT 1",
      [to],
    );
    const code = /is (\d{6})\./.exec(rows[0]?.body ?? "")?.[1] ?? "";
    return { code, subject: rows[0]?.subject };
  }
  const mailCount = async () =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox"))[0]?.n;

  it("e-mails a code to staff only; the code signs them in once, as their role", async () => {
    expect(await sendSignInCode(db, "Agent@Example.com ", mail, at(0))).toBe(true);
    const { code, subject } = await codeFor("agent@example.com");
    expect(code).toMatch(/^\d{6}$/);
    // The code is never in the subject, which the outbox page shows.
    expect(subject).toBe("Your Northern Virginia Family Leasing sign-in code");
    expect(subject).not.toContain(code);
    // Not staff: the same call, no code, no mail.
    expect(await sendSignInCode(db, "stranger@example.com", mail, at(0))).toBe(false);
    expect(await mailCount()).toBe(1);

    const result = await signInWithCode(db, "agent@example.com", ` ${code} `, config, at(1));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const user = await findSessionUser(db, result.session.token, config, at(2));
    expect(user).toMatchObject({ issuer: EMAIL_ISSUER, email: "agent@example.com" });
    expect(await staffRoleOf(db, user)).toBe("leasing-agent");
    // Single use.
    expect((await signInWithCode(db, "agent@example.com", code, config, at(2))).ok).toBe(false);
  });

  it("ends a code after 10 minutes, after 5 wrong tries, and when a newer one is sent", async () => {
    await sendSignInCode(db, "agent@example.com", mail, at(0));
    const first = (await codeFor("agent@example.com")).code;
    expect((await signInWithCode(db, "agent@example.com", first, config, at(10))).ok).toBe(false);

    await sendSignInCode(db, "agent@example.com", mail, at(20));
    const second = (await codeFor("agent@example.com")).code;
    const wrong = second === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      expect((await signInWithCode(db, "agent@example.com", wrong, config, at(21))).ok).toBe(false);
    }
    expect((await signInWithCode(db, "agent@example.com", second, config, at(21))).ok).toBe(false);

    await sendSignInCode(db, "agent@example.com", mail, at(30));
    const third = (await codeFor("agent@example.com")).code;
    await sendSignInCode(db, "agent@example.com", mail, at(31));
    const fourth = (await codeFor("agent@example.com")).code;
    if (third !== fourth) {
      expect((await signInWithCode(db, "agent@example.com", third, config, at(32))).ok).toBe(false);
    }
    expect((await signInWithCode(db, "agent@example.com", fourth, config, at(32))).ok).toBe(true);
  });

  it("sends at most 5 codes an hour to one address", async () => {
    for (let i = 0; i < 5; i++) {
      expect(await sendSignInCode(db, "owner@example.com", mail, at(i))).toBe(true);
    }
    expect(await sendSignInCode(db, "owner@example.com", mail, at(6))).toBe(false);
    expect(await mailCount()).toBe(5);
    expect(await sendSignInCode(db, "owner@example.com", mail, at(61))).toBe(true);
  });

  it("signs nobody in with a code sent before their removal", async () => {
    await sendSignInCode(db, "agent@example.com", mail, at(0));
    const { code } = await codeFor("agent@example.com");
    await revokeAdmin(db, "agent@example.com", []);
    expect((await signInWithCode(db, "agent@example.com", code, config, at(1))).ok).toBe(false);
  });

  it("makes single-use links for staff only, which end after 15 minutes", async () => {
    expect(await createSignInLink(db, "stranger@example.com", at(0))).toBeNull();
    const token = (await createSignInLink(db, "owner@example.com", at(0))) ?? "";
    expect(token).toMatch(/^[\w-]{43}$/);
    const used = await signInWithLink(db, token, config, at(14));
    expect(used.ok).toBe(true);
    expect((await signInWithLink(db, token, config, at(14))).ok).toBe(false);
    const late = (await createSignInLink(db, "owner@example.com", at(0))) ?? "";
    expect((await signInWithLink(db, late, config, at(15))).ok).toBe(false);
    expect((await signInWithLink(db, "x".repeat(43), config, at(1))).ok).toBe(false);
  });
});
