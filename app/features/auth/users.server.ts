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

/** Validates ID-token or userinfo claims: a usable sub is required, the rest is optional. */
export function userFromClaims(claims: Record<string, unknown>): SessionUser {
  const { sub } = claims;
  if (typeof sub !== "string" || sub === "" || sub.length > 255) {
    throw new InvalidClaimsError("The identity provider sent no usable subject (sub).");
  }
  const email = emailOrNull(claims.email);
  // Some providers send "true" as a string.
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const name = typeof claims.name === "string" ? claims.name.trim().slice(0, 200) : "";
  return { sub, email, emailVerified: email !== null && verified, name: name || null };
}

/** Inserts or refreshes the user at sign-in. */
export async function upsertUser(db: Queryable, user: SessionUser, now: Date = new Date()) {
  await db.query(
    `INSERT INTO users (sub, email, email_verified, name, created_at, last_login_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (sub) DO UPDATE SET
       email = excluded.email, email_verified = excluded.email_verified,
       name = excluded.name, last_login_at = excluded.last_login_at`,
    [user.sub, user.email, user.emailVerified, user.name, now],
  );
}
