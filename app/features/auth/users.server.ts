// Users as the identity provider describes them, refreshed at every sign-in.
import type { Queryable } from "~/shared/db.server";
import { emailOrNull } from "./emails";
import type { SessionUser } from "./viewer";

export class InvalidClaimsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidClaimsError";
  }
}

/** Validates ID-token or userinfo claims: a usable iss and sub are required, the rest is optional. */
export function userFromClaims(claims: Record<string, unknown>): SessionUser {
  const { iss, sub } = claims;
  if (typeof iss !== "string" || iss === "" || iss.length > 2048) {
    throw new InvalidClaimsError("The identity provider sent no usable issuer (iss).");
  }
  if (typeof sub !== "string" || sub === "" || sub.length > 255) {
    throw new InvalidClaimsError("The identity provider sent no usable subject (sub).");
  }
  const email = emailOrNull(claims.email);
  // Some providers send "true" as a string.
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const name = typeof claims.name === "string" ? claims.name.trim().slice(0, 200) : "";
  return { issuer: iss, sub, email, emailVerified: email !== null && verified, name: name || null };
}

/**
 * At sign-in, before upsertUser(): a user row from before migration 0008 (issuer '', the
 * placeholder) with this sub becomes this issuer's, its sessions with it (ON UPDATE CASCADE).
 * Only the configured issuer can sign anyone in, and before 0008 there was one issuer at a time.
 */
export async function claimLegacyUser(db: Queryable, user: Pick<SessionUser, "issuer" | "sub">) {
  await db.query(
    `UPDATE users SET issuer = $1
     WHERE issuer = '' AND sub = $2
       AND NOT EXISTS (SELECT 1 FROM users WHERE issuer = $1 AND sub = $2)`,
    [user.issuer, user.sub],
  );
}

/** Inserts or refreshes the user at sign-in. */
export async function upsertUser(db: Queryable, user: SessionUser, now: Date = new Date()) {
  await db.query(
    `INSERT INTO users (issuer, sub, email, email_verified, name, created_at, last_login_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (issuer, sub) DO UPDATE SET
       email = excluded.email, email_verified = excluded.email_verified,
       name = excluded.name, last_login_at = excluded.last_login_at`,
    [user.issuer, user.sub, user.email, user.emailVerified, user.name, now],
  );
}
