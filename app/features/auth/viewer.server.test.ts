import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { rootLogger } from "~/shared/logger.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { grantAdmin } from "./admins.server";
import { createSession } from "./sessions.server";
import { requireStaffApi } from "./staff-guard.server";
import { upsertUser } from "./users.server";
import { getViewer, signInOptions } from "./viewer.server";

const devEnv = readEnv({ NODE_ENV: "development" });
const boss = {
  issuer: "https://id.example",
  sub: "u-boss",
  email: "boss@example.com",
  emailVerified: true,
  name: "Boss",
};
const guest = {
  issuer: "https://id.example",
  sub: "u-guest",
  email: "guest@example.com",
  emailVerified: true,
  name: null,
};

describe.each(dbTargets)("viewer on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let bossCookie: string;
  let guestCookie: string;

  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
    await upsertUser(db, boss);
    await upsertUser(db, guest);
    await grantAdmin(db, boss.email);
    bossCookie = `session=${(await createSession(db, boss, devEnv.session)).token}`;
    guestCookie = `other=1; session=${(await createSession(db, guest, devEnv.session)).token}`;
  });
  afterAll(async () => cleanup?.());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("anonymous: no user, not admin", async () => {
    expect(await getViewer(db, devEnv, undefined)).toEqual({
      user: null,
      role: null,
      isAdmin: false,
      listings: null,
      signIn: { available: true, providerName: "Google" },
    });
    expect((await getViewer(db, devEnv, "session=bogus")).user).toBeNull();
  });

  it("signed in: the user, and whether they are an admin", async () => {
    expect(await getViewer(db, devEnv, bossCookie)).toMatchObject({
      user: boss,
      role: "owner",
      isAdmin: true,
    });
    expect(await getViewer(db, devEnv, guestCookie)).toMatchObject({
      user: guest,
      role: null,
      isAdmin: false,
    });
  });

  it("a failed admin check counts as non-admin and logs the spec's line", async () => {
    const failure = new Error("database went away");
    const failing = {
      ...db,
      query: (sql: string, params?: unknown[]) =>
        sql.includes("SELECT role FROM admins") ? Promise.reject(failure) : db.query(sql, params),
    } as Db;
    const logged = vi.spyOn(rootLogger(), "error").mockImplementation(() => undefined);
    const viewer = await getViewer(failing, devEnv, bossCookie);
    expect(viewer.user).toEqual(boss);
    expect(viewer.isAdmin).toBe(false);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith({ err: failure }, "Failed to check admin status");
  });

  describe("requireStaffApi", () => {
    let base: string;
    let close: () => void;
    beforeAll(async () => {
      const app = express();
      app.post(
        "/admin-only",
        requireStaffApi({ db, env: devEnv }, "listings:write"),
        (_req, res) => {
          res.json({ who: res.locals.viewer.user.email, isAdmin: res.locals.viewer.isAdmin });
        },
      );
      const server = app.listen(0, "127.0.0.1");
      await once(server, "listening");
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () => server.close();
    });
    afterAll(() => close?.());

    const call = (cookie?: string) =>
      fetch(`${base}/admin-only`, { method: "POST", headers: cookie ? { cookie } : {} });

    it("401 for anonymous", async () => {
      const res = await call();
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ ok: false, error: "Sign in required." });
    });

    it("403 for a signed-in non-admin", async () => {
      const res = await call(guestCookie);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ ok: false, error: "Admins only." });
    });

    it("passes admins through with res.locals.viewer", async () => {
      const res = await call(bossCookie);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ who: "boss@example.com", isAdmin: true });
    });
  });
});

describe("sign-in options", () => {
  it("names the configured provider, Google, or Development", () => {
    const google = readEnv({
      NODE_ENV: "production",
      OIDC_CLIENT_ID: "a",
      OIDC_CLIENT_SECRET: "b",
    });
    expect(signInOptions(google)).toEqual({ available: true, providerName: "Google" });
    const sso = readEnv({
      NODE_ENV: "production",
      OIDC_ISSUER: "https://id.example.com",
      OIDC_CLIENT_ID: "a",
      OIDC_CLIENT_SECRET: "b",
      OIDC_PROVIDER_NAME: "Example ID",
    });
    expect(signInOptions(sso)).toEqual({ available: true, providerName: "Example ID" });
    expect(signInOptions(readEnv({ NODE_ENV: "production" }))).toEqual({
      available: false,
      providerName: "Google",
    });
    expect(signInOptions(readEnv({ NODE_ENV: "test" }))).toEqual({
      available: false,
      providerName: "Google",
    });
    expect(signInOptions(readEnv({ NODE_ENV: "development" }))).toEqual({
      available: true,
      providerName: "Google",
    });
  });
});
