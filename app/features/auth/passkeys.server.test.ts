// Passkeys (docs/behaviour.md §6, "Staff sign-in"), on both databases, against a software
// authenticator (tests/support/software-authenticator.ts); the browser suite uses Chromium's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { softwareAuthenticator } from "../../../tests/support/software-authenticator";
import { grantAdmin, revokeAdmin } from "./admins.server";
import {
  finishAddingPasskey,
  finishPasskeySignIn,
  listPasskeys,
  relyingParty,
  removePasskey,
  startAddingPasskey,
  startPasskeySignIn,
} from "./passkeys.server";
import { findSessionUser } from "./sessions.server";
import { upsertUser } from "./users.server";
import type { SessionUser } from "./viewer";

const config = {
  idleMs: 12 * 3_600_000,
  staffIdleMs: 12 * 3_600_000,
  maxMs: 7 * 86_400_000,
  secureCookie: false,
  cookieName: "s",
};
const ORIGIN = "https://leasing.example";
const rp = relyingParty(`${ORIGIN}/`, "Northern Virginia Family Leasing");
const at = (minutes: number) => new Date(Date.UTC(2027, 0, 4, 9, 0) + minutes * 60_000);
const person = (email: string): SessionUser => ({
  issuer: "https://accounts.example",
  sub: `sub-${email}`,
  email,
  emailVerified: true,
  name: null,
});

describe.each(dbTargets)("passkeys on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const agent = person("agent@example.com");
  const owner = person("owner@example.com");
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec(
      "DELETE FROM staff_passkeys; DELETE FROM passkey_challenges; DELETE FROM sessions; DELETE FROM admins",
    );
    for (const user of [agent, owner]) await db.transaction((tx) => upsertUser(tx, user, at(0)));
    await grantAdmin(db, agent.email as string, "test", "leasing-agent");
    await grantAdmin(db, owner.email as string);
  });

  /** Adds a passkey for `user` on a new software authenticator. */
  async function addPasskey(user: SessionUser, name: string, when = at(0)) {
    const device = softwareAuthenticator(ORIGIN);
    const options = await startAddingPasskey(db, user, rp, when);
    const result = await finishAddingPasskey(db, user, rp, device.register(options), name, when);
    return { device, result };
  }

  async function signIn(device: ReturnType<typeof softwareAuthenticator>, when = at(1)) {
    const options = await startPasskeySignIn(db, rp, when);
    return finishPasskeySignIn(db, rp, device.authenticate(options), config, when);
  }

  it("adds a passkey that then signs its owner in, and records when it was used", async () => {
    const { device, result } = await addPasskey(agent, "Chrome on Linux");
    expect(result).toEqual({ ok: true });
    expect(await listPasskeys(db, agent)).toEqual([
      { id: device.credentialId, name: "Chrome on Linux", createdAt: at(0), lastUsedAt: null },
    ]);
    const signedIn = await signIn(device, at(3));
    expect(signedIn.ok).toBe(true);
    const user = await findSessionUser(
      db,
      signedIn.ok ? signedIn.session.token : undefined,
      config,
      at(4),
    );
    expect(user).toMatchObject({ issuer: agent.issuer, sub: agent.sub, email: agent.email });
    expect((await listPasskeys(db, agent))[0]?.lastUsedAt).toEqual(at(3));
    // Nobody else's list shows it.
    expect(await listPasskeys(db, owner)).toEqual([]);
  });

  it("takes each challenge once, and only within 5 minutes", async () => {
    const { device } = await addPasskey(agent, "Laptop");
    const options = await startPasskeySignIn(db, rp, at(1));
    const answer = device.authenticate(options);
    expect((await finishPasskeySignIn(db, rp, answer, config, at(1))).ok).toBe(true);
    // The same signed answer again (a replay): refused, by its counter too.
    expect((await finishPasskeySignIn(db, rp, answer, config, at(1))).ok).toBe(false);
    // A new signature over the used challenge (its counter moved on): refused all the same.
    expect(await finishPasskeySignIn(db, rp, device.authenticate(options), config, at(1))).toEqual({
      ok: false,
      error: "That passkey did not sign you in. Try again, or e-mail yourself a code.",
    });
    const late = await startPasskeySignIn(db, rp, at(10));
    expect((await finishPasskeySignIn(db, rp, device.authenticate(late), config, at(16))).ok).toBe(
      false,
    );
    const addLate = await startAddingPasskey(db, agent, rp, at(20));
    const second = softwareAuthenticator(ORIGIN);
    expect(
      await finishAddingPasskey(db, agent, rp, second.register(addLate), "Phone", at(26)),
    ).toEqual({ ok: false, error: "That took too long. Try again." });
  });

  it("refuses another site's answer, one without user verification, and a stranger's key", async () => {
    const { device } = await addPasskey(agent, "Laptop");
    // An answer made for another origin (a phishing page) does not sign in.
    const elsewhere = softwareAuthenticator("https://leasing.example.evil.test");
    const options = await startPasskeySignIn(db, rp, at(1));
    const phished = { ...elsewhere.authenticate(options), id: device.credentialId };
    expect((await finishPasskeySignIn(db, rp, phished, config, at(1))).ok).toBe(false);
    // A key that was never added.
    const stranger = softwareAuthenticator(ORIGIN);
    const again = await startPasskeySignIn(db, rp, at(1));
    expect(
      (await finishPasskeySignIn(db, rp, stranger.authenticate(again), config, at(1))).ok,
    ).toBe(false);
    // User verification is required when adding.
    const unverified = softwareAuthenticator(ORIGIN, { verified: false });
    const add = await startAddingPasskey(db, owner, rp, at(1));
    expect(
      (await finishAddingPasskey(db, owner, rp, unverified.register(add), "Key", at(1))).ok,
    ).toBe(false);
    // Garbage instead of an answer: a refusal, not a throw.
    expect((await finishPasskeySignIn(db, rp, { id: 1 }, config, at(1))).ok).toBe(false);
    expect((await finishAddingPasskey(db, owner, rp, "x", "Key", at(1))).ok).toBe(false);
    expect(await listPasskeys(db, owner)).toEqual([]);
  });

  it("an add started by one person cannot be finished by another", async () => {
    const device = softwareAuthenticator(ORIGIN);
    const options = await startAddingPasskey(db, agent, rp, at(0));
    const result = await finishAddingPasskey(db, owner, rp, device.register(options), "X", at(0));
    expect(result.ok).toBe(false);
    expect(await listPasskeys(db, owner)).toEqual([]);
    expect(await listPasskeys(db, agent)).toEqual([]);
  });

  it("'Remove' takes only one's own passkey; removed staff lose theirs and cannot sign in", async () => {
    const { device } = await addPasskey(agent, "Laptop");
    const [mine] = await listPasskeys(db, agent);
    expect(await removePasskey(db, owner, mine?.id ?? "")).toBeNull();
    expect(await listPasskeys(db, agent)).toHaveLength(1);

    await revokeAdmin(db, agent.email as string, []);
    expect(await listPasskeys(db, agent)).toEqual([]);
    expect((await signIn(device)).ok).toBe(false);

    const { device: ownerDevice } = await addPasskey(owner, "Phone");
    const [theirs] = await listPasskeys(db, owner);
    expect(await removePasskey(db, owner, theirs?.id ?? "")).toBe("Phone");
    expect((await signIn(ownerDevice)).ok).toBe(false);
  });

  it("a passkey of someone no longer staff signs nobody in, even if it was kept", async () => {
    const { device } = await addPasskey(agent, "Laptop");
    // A grant removed by hand (not through 'Remove'), the passkey left behind.
    await db.query("DELETE FROM admins WHERE email = $1", [agent.email]);
    expect((await signIn(device)).ok).toBe(false);
  });
});
