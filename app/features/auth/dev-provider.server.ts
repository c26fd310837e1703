// A real OpenID Connect provider for development (oidc-provider, memory storage), so the sign-in
// code path is the same as with Google. Its login page asks only for an email and a name.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import express from "express";
import type { KoaContext } from "oidc-provider";
import { InvalidEmailError, normalizeEmail } from "./emails";
import { loopbackOnly } from "./loopback-only.server";
import { escapeHtml, sendDevLoginPage, sendPage } from "./pages.server";

export const DEV_OIDC_PATH = "/dev-oidc";
const CLIENT_ID = "leasing-site-dev";
const SCOPE = "openid email profile";

interface DevAccount {
  email: string;
  name: string | null;
}

export interface DevIdentityProvider {
  /** Mount at DEV_OIDC_PATH. */
  router: express.Router;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Stable per address, so signing in again with the same email is the same user. */
export function devSubject(email: string): string {
  return `dev-${createHash("sha256").update(normalizeEmail(email)).digest("hex").slice(0, 32)}`;
}

export async function createDevIdentityProvider(options: {
  publicUrl: string;
  redirectUri: string;
}): Promise<DevIdentityProvider> {
  // Imported only here: production never loads it (it also warns about Node 20 at import).
  const { default: Provider } = await import("oidc-provider");
  const issuer = `${options.publicUrl}${DEV_OIDC_PATH}`;
  // Per process: the client lives in this same process, so nothing needs to be configured.
  const clientSecret = randomBytes(32).toString("base64url");
  const accounts = new Map<string, DevAccount>();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Like Google: identity claims in the ID token itself, not only from userinfo.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    jwks: { keys: [signingKey()] },
    // Seconds. Short: these only need to outlive one sign-in.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    interactions: { url: (_ctx, interaction) => `${DEV_OIDC_PATH}/interaction/${interaction.uid}` },
    // Our own site is the only client: consent is implied, so no consent screen.
    loadExistingGrant: async (ctx: KoaContext) => {
      const { client, session, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const existing = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope(SCOPE);
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: true,
          ...(account.name ? { name: account.name } : {}),
        }),
      };
    },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Development sign-in error</title>
<h1>Development sign-in error</h1><p>${escapeHtml(out.error ?? "error")}: ${escapeHtml(out.error_description ?? "")}</p>`;
    },
  });
  // Trust X-Forwarded-* so endpoint URLs are right behind a development proxy.
  provider.proxy = true;

  const router = express.Router();
  // Anyone who reaches it becomes whoever they type: never anyone on the network.
  router.use(loopbackOnly());
  const formAction = (uid: string) =>
    `${DEV_OIDC_PATH}/interaction/${encodeURIComponent(uid)}/login`;

  router.get("/interaction/:uid", async (req, res) => {
    const details = await interactionOrNull(provider, req, res);
    if (!details || details.uid !== req.params.uid) return sendExpired(res);
    if (details.prompt.name !== "login") {
      return sendPage(res, 400, { title: "Development sign-in", body: "<p>Unexpected step.</p>" });
    }
    const hint = typeof details.params.login_hint === "string" ? details.params.login_hint : "";
    sendDevLoginPage(res, 200, { action: formAction(details.uid), email: hint });
  });

  router.post(
    "/interaction/:uid/login",
    express.urlencoded({ extended: false, limit: "4kb" }),
    async (req, res) => {
      const details = await interactionOrNull(provider, req, res);
      if (!details || details.uid !== req.params.uid) return sendExpired(res);
      const form = readLoginForm(req.body);
      if ("error" in form) {
        return sendDevLoginPage(res, 400, { action: formAction(details.uid), ...form });
      }
      const { email, name } = form;
      const sub = devSubject(email);
      accounts.set(sub, { email, name: name || null });
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub } },
        { mergeWithLastSubmission: false },
      );
    },
  );

  router.use(provider.callback());
  return { router, issuer, clientId: CLIENT_ID, clientSecret };
}

/** The posted email and name, validated; or the form to show again with an error. */
function readLoginForm(
  body: unknown,
): { email: string; name: string } | { email: string; name: string; error: string } {
  const fields = (body ?? {}) as Record<string, unknown>;
  const rawEmail = typeof fields.email === "string" ? fields.email.slice(0, 320) : "";
  const name = typeof fields.name === "string" ? fields.name.trim().slice(0, 1000) : "";
  const again = { email: rawEmail.slice(0, 254), name: name.slice(0, 200) };
  if (name.length > 200)
    return { ...again, error: "The name is too long (200 characters at most)." };
  try {
    return { email: normalizeEmail(rawEmail), name };
  } catch (error) {
    if (!(error instanceof InvalidEmailError)) throw error;
    return { ...again, error: "Enter a valid email address." };
  }
}

/** An RS256 key per process (ID tokens are only checked by this same process). */
function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: "dev-1", use: "sig", alg: "RS256" };
}

async function interactionOrNull(
  provider: import("oidc-provider").Provider,
  req: express.Request,
  res: express.Response,
) {
  try {
    return await provider.interactionDetails(req, res);
  } catch {
    return null;
  }
}

function sendExpired(res: express.Response) {
  sendPage(res, 400, {
    title: "Development sign-in",
    body: "<main><h1>Development sign-in</h1><p>This sign-in attempt has expired or is unknown. Close this window and try again.</p></main>",
  });
}
