// A sign-in in progress: state, nonce and PKCE verifier, kept server-side under the hash of a
// short-lived cookie token, so only the browser that started the flow can finish it.
import type { Queryable } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { readCookie, serializeCookie } from "./cookies.server";
import { newToken, tokenId } from "./tokens.server";

export interface LoginFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Time to finish signing in at the provider. */
export const LOGIN_FLOW_TTL_MS = 10 * 60_000;

type CookieConfig = Pick<Env["session"], "secureCookie">;

export function loginFlowCookieName(config: CookieConfig): string {
  return config.secureCookie ? "__Host-login-flow" : "login-flow";
}

/** Stores the flow; returns the cookie token that identifies it. */
export async function saveLoginFlow(
  db: Queryable,
  flow: LoginFlow,
  now: Date = new Date(),
): Promise<string> {
  const token = newToken();
  await db.query("DELETE FROM login_flows WHERE expires_at <= $1", [now]);
  await db.query(
    `INSERT INTO login_flows (id, state, nonce, code_verifier, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      tokenId(token),
      flow.state,
      flow.nonce,
      flow.codeVerifier,
      new Date(now.getTime() + LOGIN_FLOW_TTL_MS),
    ],
  );
  return token;
}

/** Reads and deletes the flow in one step: a callback URL cannot be replayed. */
export async function takeLoginFlow(
  db: Queryable,
  token: string | undefined,
  now: Date = new Date(),
): Promise<LoginFlow | null> {
  const id = tokenId(token);
  if (!id) return null;
  const [row] = await db.query<{
    state: string;
    nonce: string;
    code_verifier: string;
    expires_at: Date;
  }>("DELETE FROM login_flows WHERE id = $1 RETURNING state, nonce, code_verifier, expires_at", [
    id,
  ]);
  if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return null;
  return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier };
}

export function loginFlowTokenFromCookies(header: string | undefined, config: CookieConfig) {
  return readCookie(header, loginFlowCookieName(config));
}

export function loginFlowCookie(config: CookieConfig, token: string): string {
  return serializeCookie(loginFlowCookieName(config), token, {
    maxAgeSeconds: LOGIN_FLOW_TTL_MS / 1000,
    secure: config.secureCookie,
  });
}

export function clearedLoginFlowCookie(config: CookieConfig): string {
  return serializeCookie(loginFlowCookieName(config), "", {
    maxAgeSeconds: 0,
    secure: config.secureCookie,
  });
}
