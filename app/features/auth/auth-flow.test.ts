// The whole sign-in against the development identity provider, in-process, over real HTTP.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "~/shared/db.server";
import { type Env, readEnv } from "~/shared/env.server";
import { rootLogger } from "~/shared/logger.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { grantAdmin, listAdmins } from "./admins.server";
import { createAuthRouter, SIGN_IN_UNAVAILABLE_MESSAGE } from "./auth-router.server";
import { devSubject } from "./dev-provider.server";
import { CookieJar, followUntil, redirectTarget, request } from "./http-test-client";
import { getViewer } from "./viewer.server";

interface TestServer {
  base: string;
  env: Env;
  close(): Promise<void>;
}

async function startServer(db: Db, vars: Record<string, string> = {}): Promise<TestServer> {
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = readEnv({ NODE_ENV: "development", PUBLIC_URL: base, ...vars });
  app.use(await createAuthRouter({ db, env }));
  return {
    base,
    env,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface SignInOptions {
  email: string;
  name?: string;
  /** Runs after /auth/login stored the flow, before the callback is requested. */
  beforeCallback?: () => Promise<void>;
  /** Alters the callback URL the provider redirected to. */
  alterCallback?: (url: URL) => URL;
}

/** Drives the popup: /auth/login → provider → login form → provider → /auth/callback. */
async function signIn(t: TestServer, jar: CookieJar, options: SignInOptions) {
  const login = await request(jar, `${t.base}/auth/login`);
  expect(login.status).toBe(303);
  const authorize = redirectTarget(login, t.base);
  expect(authorize.pathname).toBe("/dev-oidc/auth");
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("scope")).toBe("openid email profile");
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${t.base}/auth/callback`);

  const { url: interaction } = await followUntil(jar, authorize, "/dev-oidc/interaction/");
  const form = await request(jar, interaction);
  const html = await form.text();
  expect(form.status).toBe(200);
  const action = /action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  if (!action) throw new Error("no login form");

  const posted = await request(jar, new URL(action, t.base), {
    method: "POST",
    body: new URLSearchParams({ email: options.email, name: options.name ?? "" }),
  });
  const { url: callback } = await followUntil(jar, redirectTarget(posted, t.base), "/auth/");
  expect(callback.pathname).toBe("/auth/callback");
  await options.beforeCallback?.();
  const finalUrl = options.alterCallback ? options.alterCallback(new URL(callback)) : callback;
  const response = await request(jar, finalUrl);
  return { response, html: await response.text(), loginFormHtml: html };
}

/** The refusal reason, wherever openid-client put it (message, cause, OAuth error fields). */
function describeError(error: unknown): string {
  const e = error as {
    message?: string;
    cause?: unknown;
    error?: string;
    error_description?: string;
  };
  const cause = e.cause as { message?: string; error_description?: string } | undefined;
  return [e.message, e.error, e.error_description, cause?.message, cause?.error_description]
    .filter(Boolean)
    .join(" | ");
}

const countSessions = async (db: Db) =>
  (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions"))[0]?.n;

describe.each(dbTargets)("sign-in with the development provider on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let t: TestServer;

  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
    t = await startServer(db);
  });
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("signs in through the provider's labelled login page and creates a session", async () => {
    await grantAdmin(db, "Boss@Example.com", "test");
    const jar = new CookieJar();
    const { response, html, loginFormHtml } = await signIn(t, jar, {
      email: "boss@example.com",
      name: "Pat Boss",
    });
    expect(loginFormHtml).toContain("<h1>Development sign-in</h1>");
    expect(loginFormHtml).toMatch(/not for production/);
    expect(loginFormHtml).toMatch(/<label for="email">Email<\/label>/);
    expect(loginFormHtml).toMatch(/<label for="name">Name<\/label>/);
    expect(loginFormHtml).toMatch(/<button type="submit">Sign in<\/button>/);

    expect(response.status).toBe(200);
    expect(html).toContain("window.opener?.postMessage(message, location.origin)");
    expect(html).toContain('"auth:signed-in"');
    expect(html).toContain("window.close()");
    expect(html).toContain('href="/"');
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("session="));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);

    const viewer = await getViewer(db, t.env, jar.header(t.base));
    expect(viewer.user).toEqual({
      issuer: `${t.base}/dev-oidc`,
      sub: devSubject("boss@example.com"),
      email: "boss@example.com",
      emailVerified: true,
      name: "Pat Boss",
    });
    expect(viewer.isAdmin).toBe(true);
    expect(viewer.signIn).toEqual({ available: true, providerName: "Google" });
    // The email grant is now bound to the user's uid.
    const grant = (await listAdmins(db)).find((g) => g.email === "boss@example.com");
    expect(grant).toMatchObject({ uid: devSubject("boss@example.com"), name: "Pat Boss" });
  });

  it("gives the same user (sub) for the same email and a new session id each time", async () => {
    const jar = new CookieJar();
    await signIn(t, jar, { email: "same@example.com", name: "One" });
    const first = jar.get("session");
    await signIn(t, jar, { email: "SAME@example.com", name: "Two" });
    const second = jar.get("session");
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // The browser's previous session ended with the new sign-in.
    expect((await getViewer(db, t.env, `session=${first}`)).user).toBeNull();
    const viewer = await getViewer(db, t.env, `session=${second}`);
    expect(viewer.user).toMatchObject({ sub: devSubject("same@example.com"), name: "Two" });
    expect(viewer.isAdmin).toBe(false);
  });

  it("re-shows the login form for an invalid email", async () => {
    const jar = new CookieJar();
    const login = await request(jar, `${t.base}/auth/login`);
    const { url } = await followUntil(jar, redirectTarget(login, t.base), "/dev-oidc/interaction/");
    const html = await (await request(jar, url)).text();
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? "";
    const posted = await request(jar, new URL(action, t.base), {
      method: "POST",
      body: new URLSearchParams({ email: "not-an-email", name: "<b>x</b>" }),
    });
    expect(posted.status).toBe(400);
    const again = await posted.text();
    expect(again).toContain("Enter a valid email address.");
    expect(again).toContain("&lt;b&gt;x&lt;/b&gt;");
    const tooLong = await request(jar, new URL(action, t.base), {
      method: "POST",
      body: new URLSearchParams({ email: "ok@example.com", name: "n".repeat(201) }),
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("The name is too long");
  });

  describe("refuses a tampered sign-in (no session is created)", () => {
    async function expectRefused(options: Omit<SignInOptions, "email">, email: string) {
      const errors = vi.spyOn(rootLogger(), "error").mockImplementation(() => undefined);
      const before = await countSessions(db);
      const jar = new CookieJar();
      const { response, html } = await signIn(t, jar, { email, ...options });
      expect(response.status).toBe(200);
      expect(html).toContain('"auth:failed"');
      expect(html).not.toContain('"auth:signed-in"');
      expect(jar.get("session")).toBeUndefined();
      expect(await countSessions(db)).toBe(before);
      expect(errors).toHaveBeenCalledWith(
        { err: expect.anything() },
        "Error logging in with Google",
      );
      const users = await db.query("SELECT 1 FROM users WHERE email = $1", [email]);
      expect(users).toHaveLength(0);
      return describeError((errors.mock.calls[0]?.[0] as { err?: unknown } | undefined)?.err);
    }

    it("with an altered state", async () => {
      const error = await expectRefused(
        {
          alterCallback: (url) => {
            url.searchParams.set("state", `${url.searchParams.get("state")}x`);
            return url;
          },
        },
        "state@example.com",
      );
      expect(error).toContain('unexpected "state" response parameter value');
    });

    it("with a wrong PKCE verifier", async () => {
      const error = await expectRefused(
        {
          beforeCallback: async () => {
            // What an attacker holding a stolen code lacks: the verifier of this browser's flow.
            await db.query("UPDATE login_flows SET code_verifier = $1", ["x".repeat(43)]);
          },
        },
        "pkce@example.com",
      );
      // The provider's token endpoint refuses the code (its detail stays server-side).
      expect(error).toContain("invalid_grant");
    });

    it("with a wrong nonce", async () => {
      const error = await expectRefused(
        {
          beforeCallback: async () => {
            await db.query("UPDATE login_flows SET nonce = 'another-nonce'");
          },
        },
        "nonce@example.com",
      );
      expect(error).toContain('unexpected ID Token "nonce" claim value');
    });

    it("without this browser's flow cookie", async () => {
      await expectRefused(
        { beforeCallback: async () => void (await db.query("DELETE FROM login_flows")) },
        "nocookie@example.com",
      );
    });
  });

  it("cannot replay a callback URL", async () => {
    const jar = new CookieJar();
    let callback: URL | undefined;
    await signIn(t, jar, {
      email: "replay@example.com",
      alterCallback: (url) => {
        callback = url;
        return url;
      },
    });
    expect(jar.get("session")).toBeTruthy();
    const errors = vi.spyOn(rootLogger(), "error").mockImplementation(() => undefined);
    const other = new CookieJar();
    const replay = await request(other, callback as URL);
    expect(await replay.text()).toContain('"auth:failed"');
    expect(other.get("session")).toBeUndefined();
    expect(errors).toHaveBeenCalledWith({ err: expect.anything() }, "Error logging in with Google");
  });

  it("logs out: the session ends server-side and the cookie is cleared", async () => {
    const jar = new CookieJar();
    await signIn(t, jar, { email: "leaving@example.com" });
    const token = jar.get("session");
    const cookie = `session=${token}`;
    expect((await getViewer(db, t.env, cookie)).user).not.toBeNull();

    const crossSite = await fetch(`${t.base}/auth/logout`, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect((await getViewer(db, t.env, cookie)).user).not.toBeNull();

    const out = await fetch(`${t.base}/auth/logout`, {
      method: "POST",
      headers: { cookie, origin: t.base },
    });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/session=; .*Max-Age=0/);
    // A copy of the old cookie no longer works either.
    expect((await getViewer(db, t.env, cookie)).user).toBeNull();
  });
});

describe("sign-in configuration", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const target = dbTargets[0];
    if (!target) throw new Error("no database target");
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("without settings in production: one clear log line and 503 on /auth/login", async () => {
    const warn = vi.spyOn(rootLogger(), "warn").mockImplementation(() => undefined);
    const t = await startServer(db, { NODE_ENV: "production" });
    try {
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(SIGN_IN_UNAVAILABLE_MESSAGE);
      const res = await fetch(`${t.base}/auth/login`, { redirect: "manual" });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("Sign-in is not available.");
      expect((await fetch(`${t.base}/dev-oidc/.well-known/openid-configuration`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("warns about a plain-http public URL in production with OIDC settings", async () => {
    const warn = vi.spyOn(rootLogger(), "warn").mockImplementation(() => undefined);
    const router = await createAuthRouter({
      db,
      env: readEnv({
        NODE_ENV: "production",
        PUBLIC_URL: "http://leasing.example.com",
        OIDC_CLIENT_ID: "id",
        OIDC_CLIENT_SECRET: "secret-value",
      }),
    });
    expect(router).toBeTypeOf("function");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/plain http/);
    expect(String(warn.mock.calls[0]?.[0])).not.toContain("secret-value");
  });

  it("does not warn for an https public URL", async () => {
    const warn = vi.spyOn(rootLogger(), "warn").mockImplementation(() => undefined);
    await createAuthRouter({
      db,
      env: readEnv({
        NODE_ENV: "production",
        PUBLIC_URL: "https://leasing.example.com",
        OIDC_CLIENT_ID: "id",
        OIDC_CLIENT_SECRET: "secret",
      }),
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it("logs 'Error logging in with Google' and answers auth:failed when the provider is unreachable", async () => {
    const errors = vi.spyOn(rootLogger(), "error").mockImplementation(() => undefined);
    const t = await startServer(db, {
      OIDC_ISSUER: "http://127.0.0.1:9/unreachable",
      OIDC_CLIENT_ID: "id",
      OIDC_CLIENT_SECRET: "secret",
    });
    try {
      const res = await fetch(`${t.base}/auth/login`, { redirect: "manual" });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('"auth:failed"');
      expect(errors).toHaveBeenCalledWith(
        { err: expect.anything() },
        "Error logging in with Google",
      );
    } finally {
      await t.close();
    }
  });
});
