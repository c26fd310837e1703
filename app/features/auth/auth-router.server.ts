// Sign-in over HTTP: /auth/login (opened in the popup), /auth/callback, /auth/logout, and in
// development the built-in identity provider at /dev-oidc.
import express from "express";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { logEvent } from "~/shared/events.server";
import { crossSiteFetch } from "~/shared/fetch-metadata";
import { log } from "~/shared/logger.server";
import { bindAdminGrants } from "./admins.server";
import {
  clearedLoginFlowCookie,
  loginFlowCookie,
  loginFlowTokenFromCookies,
  saveLoginFlow,
  takeLoginFlow,
} from "./login-flows.server";
import { isLoopbackUrl, OidcClient } from "./oidc-client.server";
import { sendPopupResult, sendSignInUnavailable } from "./pages.server";
import {
  finishAddingPasskey,
  finishPasskeySignIn,
  PASSKEY_NAME_MAX,
  relyingParty,
  startAddingPasskey,
  startPasskeySignIn,
} from "./passkeys.server";
import {
  clearedSessionCookie,
  createSession,
  destroySession,
  sessionCookie,
  sessionTokenFromCookies,
} from "./sessions.server";
import { requireStaffApi } from "./staff-guard.server";
import { claimLegacyUser, upsertUser, userFromClaims } from "./users.server";
import type { SessionUser, Viewer } from "./viewer";

export const SIGN_IN_UNAVAILABLE_MESSAGE =
  "Sign-in is unavailable: set OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (and OIDC_ISSUER for a provider other than Google) to enable it.";

/** docs/behaviour.md §8: a failed sign-in is only logged, with this text. */
const LOGIN_FAILED_LOG = "Error logging in with Google";

/** Mount at the site root, before any body parser (the identity provider reads its own bodies). */
export async function createAuthRouter({
  db,
  env,
  companyName = async () => new URL(env.publicUrl).hostname,
}: {
  db: Db;
  env: Env;
  /** The company's name as the site shows it (a passkey prompt names it). */
  companyName?: () => Promise<string>;
}): Promise<express.Router> {
  const router = express.Router();
  const redirectUri = `${env.publicUrl}/auth/callback`;
  const oidc = await createOidcClient(router, env, redirectUri);

  router.get("/auth/login", async (_req, res) => {
    if (!oidc) return sendSignInUnavailable(res);
    try {
      const { url, flow } = await oidc.start();
      const token = await saveLoginFlow(db, flow);
      res.set("Cache-Control", "no-store");
      res.append("Set-Cookie", loginFlowCookie(env.session, token));
      res.redirect(303, url.href);
    } catch (error) {
      log().error({ err: error }, LOGIN_FAILED_LOG);
      sendPopupResult(res, "auth:failed");
    }
  });

  router.get("/auth/callback", async (req, res) => {
    // The flow is single-use whatever happens next.
    res.append("Set-Cookie", clearedLoginFlowCookie(env.session));
    try {
      if (!oidc) throw new Error("Sign-in is not configured.");
      const flow = await takeLoginFlow(
        db,
        loginFlowTokenFromCookies(req.headers.cookie, env.session),
      );
      if (!flow) throw new Error("No sign-in in progress in this browser, or it expired.");
      // Built from PUBLIC_URL, not the Host header: it must equal the registered redirect URI.
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = new URL(req.originalUrl, "http://unused").search;
      const user = userFromClaims(await oidc.finish(callbackUrl, flow));
      const now = new Date();
      const session = await db.transaction(async (tx) => {
        await claimLegacyUser(tx, user);
        await upsertUser(tx, user, now);
        await bindAdminGrants(tx, user);
        // This browser's previous session (if any) ends: a sign-in always starts a new one.
        await destroySession(tx, sessionTokenFromCookies(req.headers.cookie, env.session));
        return createSession(tx, user, env.session, now);
      });
      res.append("Set-Cookie", sessionCookie(env.session, session, now));
      logEvent("sign-in", user.email ?? user.sub, { issuer: user.issuer, sub: user.sub });
      sendPopupResult(res, "auth:signed-in");
    } catch (error) {
      log().error({ err: error }, LOGIN_FAILED_LOG);
      // Who is not known (the provider's answer was not accepted); the reason is.
      logEvent("sign-in refused", null, { reason: (error as Error).message });
      sendPopupResult(res, "auth:failed");
    }
  });

  router.post("/auth/logout", async (req, res) => {
    if (
      !sameOriginOrAbsent(req.headers.origin, env.publicUrl) ||
      (!req.headers.origin && crossSiteFetch(req.headers["sec-fetch-site"]))
    ) {
      res.status(403).json({ error: "Cross-origin request refused." });
      return;
    }
    await destroySession(db, sessionTokenFromCookies(req.headers.cookie, env.session));
    res.set("Cache-Control", "no-store");
    res.append("Set-Cookie", clearedSessionCookie(env.session));
    res.status(204).end();
  });

  mountPasskeys(router, { db, env, companyName });
  return router;
}

/**
 * Passkeys over JSON (passkeys.server.ts): each ceremony's two steps, for the few lines of
 * script on /sign-in and /account (passkey-button.tsx). Same-origin posts only.
 */
function mountPasskeys(
  router: express.Router,
  { db, env, companyName }: { db: Db; env: Env; companyName: () => Promise<string> },
) {
  const json = express.json({ limit: "16kb" });
  const sameOrigin: express.RequestHandler = (req, res, next) => {
    res.set("Cache-Control", "no-store");
    if (
      !sameOriginOrAbsent(req.headers.origin, env.publicUrl) ||
      (!req.headers.origin && crossSiteFetch(req.headers["sec-fetch-site"]))
    ) {
      res.status(403).json({ error: "Cross-origin request refused." });
      return;
    }
    next();
  };
  const rp = async () => relyingParty(env.publicUrl, await companyName());
  const staff = requireStaffApi({ db, env }, "account");
  const user = (res: express.Response) => (res.locals.viewer as Viewer).user as SessionUser;

  router.post("/auth/passkey/sign-in/options", sameOrigin, async (_req, res) => {
    res.json(await startPasskeySignIn(db, await rp()));
  });
  router.post("/auth/passkey/sign-in", sameOrigin, json, async (req, res) => {
    const result = await finishPasskeySignIn(db, await rp(), req.body?.credential, env.session);
    if (!result.ok) {
      res.status(400).json({ error: result.error });
      return;
    }
    await destroySession(db, sessionTokenFromCookies(req.headers.cookie, env.session));
    res.append("Set-Cookie", sessionCookie(env.session, result.session));
    res.json({ ok: true });
  });
  router.post("/auth/passkey/add/options", sameOrigin, staff, async (_req, res) => {
    res.json(await startAddingPasskey(db, user(res), await rp()));
  });
  router.post("/auth/passkey/add", sameOrigin, staff, json, async (req, res) => {
    const name = passkeyName(req.body?.name, req.headers["user-agent"]);
    const result = await finishAddingPasskey(db, user(res), await rp(), req.body?.credential, name);
    if (!result.ok) {
      res.status(400).json({ error: result.error });
      return;
    }
    res.json({ ok: true });
  });
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/Firefox\//, "Firefox"],
  [/Chrom(e|ium)\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad/, "iOS"],
  [/Mac OS X/, "macOS"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** The name typed for a new passkey, or else the browser and system it was added on. */
export function passkeyName(typed: unknown, userAgent: string | undefined): string {
  const name = typeof typed === "string" ? typed.replace(/\s+/g, " ").trim() : "";
  if (name) return name.slice(0, PASSKEY_NAME_MAX);
  const ua = userAgent ?? "";
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? "Browser";
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  return system ? `${browser} on ${system}` : browser;
}

/** The configured provider, the development provider (mounted on `router`), or none. */
async function createOidcClient(
  router: express.Router,
  env: Env,
  redirectUri: string,
): Promise<OidcClient | null> {
  if (env.oidc) {
    if (env.nodeEnv === "production" && isPlainHttpRemote(env.publicUrl)) {
      log().warn(
        `PUBLIC_URL (${env.publicUrl}) uses plain http: session cookies travel unencrypted and cannot be Secure. Serve the site over https.`,
      );
    }
    return new OidcClient({
      issuer: env.oidc.issuer,
      clientId: env.oidc.clientId,
      clientSecret: env.oidc.clientSecret,
      redirectUri,
      allowHttp: isLoopbackUrl(env.oidc.issuer),
    });
  }
  if (env.devIdentityProvider) {
    const { createDevIdentityProvider, DEV_OIDC_PATH } = await import("./dev-provider.server");
    const dev = await createDevIdentityProvider({ publicUrl: env.publicUrl, redirectUri });
    router.use(DEV_OIDC_PATH, dev.router);
    return new OidcClient({
      issuer: dev.issuer,
      clientId: dev.clientId,
      clientSecret: dev.clientSecret,
      redirectUri,
      allowHttp: true,
      // Ask every time, so a developer can switch between accounts after logging out.
      extraParams: { prompt: "login" },
    });
  }
  log().warn(SIGN_IN_UNAVAILABLE_MESSAGE);
  return null;
}

function isPlainHttpRemote(url: string): boolean {
  return new URL(url).protocol === "http:" && !isLoopbackUrl(url);
}

/** Logout is a state change: refuse it from other origins (absent Origin: not a browser form). */
function sameOriginOrAbsent(origin: string | undefined, publicUrl: string): boolean {
  return origin === undefined || origin === new URL(publicUrl).origin;
}
