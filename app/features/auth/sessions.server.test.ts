import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { readCookie } from "./cookies.server";
import {
  clearedSessionCookie,
  createSession,
  destroySession,
  findSessionUser,
  LAST_SEEN_RESOLUTION_MS,
  type SessionConfig,
  sessionCookie,
  sessionTokenFromCookies,
} from "./sessions.server";
import { upsertUser } from "./users.server";

const HOUR = 3_600_000;
const config: SessionConfig = {
  idleMs: 12 * HOUR,
  staffIdleMs: 12 * HOUR,
  maxMs: 7 * 24 * HOUR,
  secureCookie: false,
  cookieName: "session",
};
const t0 = new Date("2026-03-01T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const alice = {
  issuer: "https://id.example",
  sub: "u-alice",
  email: "alice@example.com",
  emailVerified: true,
  name: "Alice",
};

describe.each(dbTargets)("sessions on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec("DELETE FROM sessions; DELETE FROM users;");
    await upsertUser(db, alice, t0);
  });

  const lastSeen = async (token: string) => {
    const id = createHash("sha256").update(token).digest("hex");
    const [row] = await db.query<{ last_seen_at: Date }>(
      "SELECT last_seen_at FROM sessions WHERE id = $1",
      [id],
    );
    return row ? new Date(row.last_seen_at).getTime() : null;
  };

  it("creates a new random session for every sign-in and stores only its hash", async () => {
    const a = await createSession(db, alice, config, t0);
    const b = await createSession(db, alice, config, t0);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.token).not.toBe(a.token);
    expect(a.expiresAt.getTime()).toBe(t0.getTime() + config.maxMs);
    const ids = (await db.query<{ id: string }>("SELECT id FROM sessions")).map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(a.token);
    expect(ids).toContain(createHash("sha256").update(a.token).digest("hex"));
    expect(await findSessionUser(db, a.token, config, t0)).toEqual(alice);
    expect(await findSessionUser(db, b.token, config, t0)).toEqual(alice);
  });

  it("knows nothing of unknown, malformed or missing tokens", async () => {
    await createSession(db, alice, config, t0);
    expect(await findSessionUser(db, undefined, config, t0)).toBeNull();
    expect(await findSessionUser(db, "", config, t0)).toBeNull();
    expect(await findSessionUser(db, "x".repeat(43), config, t0)).toBeNull();
    expect(await findSessionUser(db, "'; DROP TABLE sessions; --", config, t0)).toBeNull();
  });

  it("ends after the idle timeout, counted from the last use", async () => {
    const { token } = await createSession(db, alice, config, t0);
    // Used just before going idle: stays, and the idle clock restarts.
    expect(await findSessionUser(db, token, config, at(config.idleMs - 1000))).not.toBeNull();
    expect(await findSessionUser(db, token, config, at(2 * config.idleMs - 2000))).not.toBeNull();
    // Then left alone for the idle timeout.
    expect(await findSessionUser(db, token, config, at(3 * config.idleMs - 2000))).toBeNull();
    // Gone from the table: even an earlier clock cannot revive it.
    expect(await findSessionUser(db, token, config, t0)).toBeNull();
  });

  it("writes last_seen_at at most once a minute", async () => {
    const { token } = await createSession(db, alice, config, t0);
    await findSessionUser(db, token, config, at(30_000));
    expect(await lastSeen(token)).toBe(t0.getTime());
    await findSessionUser(db, token, config, at(LAST_SEEN_RESOLUTION_MS + 1000));
    expect(await lastSeen(token)).toBe(t0.getTime() + LAST_SEEN_RESOLUTION_MS + 1000);
  });

  it("ends at the absolute limit however active it is", async () => {
    const { token } = await createSession(db, alice, config, t0);
    let now = 0;
    while (now + HOUR < config.maxMs) {
      now += HOUR;
      expect(await findSessionUser(db, token, config, at(now))).not.toBeNull();
    }
    expect(await findSessionUser(db, token, config, at(config.maxMs))).toBeNull();
  });

  it("honours timestamps changed in the database (idle by SQL)", async () => {
    const { token } = await createSession(db, alice, config);
    expect(await findSessionUser(db, token, config)).not.toBeNull();
    await db.query("UPDATE sessions SET last_seen_at = now() - interval '13 hours'");
    expect(await findSessionUser(db, token, config)).toBeNull();
  });

  it("logout destroys the session; other sessions of the user stay", async () => {
    const laptop = await createSession(db, alice, config, t0);
    const phone = await createSession(db, alice, config, t0);
    await destroySession(db, laptop.token);
    expect(await findSessionUser(db, laptop.token, config, t0)).toBeNull();
    expect(await findSessionUser(db, phone.token, config, t0)).toEqual(alice);
    await destroySession(db, undefined);
    await destroySession(db, "garbage");
  });

  it("reflects the user's latest profile and disappears with the user", async () => {
    const { token } = await createSession(db, alice, config, t0);
    await upsertUser(db, { ...alice, name: "Alice B." }, at(1000));
    expect((await findSessionUser(db, token, config, at(2000)))?.name).toBe("Alice B.");
    await db.query("DELETE FROM users WHERE sub = $1", [alice.sub]);
    expect(await findSessionUser(db, token, config, at(3000))).toBeNull();
  });

  it("drops expired sessions when someone signs in", async () => {
    await createSession(db, alice, config, t0);
    await createSession(db, alice, config, at(config.idleMs + 1));
    expect(await db.query("SELECT 1 FROM sessions")).toHaveLength(1);
  });
});

describe("session cookie", () => {
  const token = "A".repeat(43);
  const session = { token, expiresAt: new Date(t0.getTime() + 3600_000) };

  it("is HttpOnly, SameSite=Lax, Path=/ and lives until the absolute end (http)", () => {
    const env = readEnv({ NODE_ENV: "development" });
    const cookie = sessionCookie(env.session, session, t0);
    expect(cookie).toBe(`session=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600`);
    expect(clearedSessionCookie(env.session)).toBe(
      "session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0",
    );
  });

  it("is Secure and __Host- prefixed on an https production site", () => {
    const env = readEnv({ NODE_ENV: "production", PUBLIC_URL: "https://leasing.example.com" });
    expect(env.session.secureCookie).toBe(true);
    const cookie = sessionCookie(env.session, session, t0);
    expect(cookie).toBe(
      `__Host-session=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600; Secure`,
    );
    expect(clearedSessionCookie(env.session)).toMatch(/^__Host-session=; .*Max-Age=0; Secure$/);
    expect(sessionTokenFromCookies(`a=1; __Host-session=${token}; b=2`, env.session)).toBe(token);
    // The plain name is not accepted in place of the prefixed one.
    expect(sessionTokenFromCookies(`session=${token}`, env.session)).toBeUndefined();
  });

  it("reads cookies from a header robustly", () => {
    expect(readCookie(undefined, "session")).toBeUndefined();
    expect(readCookie("session", "session")).toBeUndefined();
    expect(readCookie("xsession=1; session=2", "session")).toBe("2");
    expect(readCookie(" session = 3 ", "session")).toBe("3");
    expect(readCookie("session=%E0%A4%A", "session")).toBeUndefined();
  });
});
