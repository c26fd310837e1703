// Server-side sessions: the cookie carries a random token, the database its hash and timestamps.
import type { Queryable } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { readCookie, serializeCookie } from "./cookies.server";
import { newToken, tokenId } from "./tokens.server";
import type { SessionUser } from "./viewer";

export type SessionConfig = Env["session"];

export interface NewSession {
  /** Goes into the cookie only. */
  token: string;
  expiresAt: Date;
}

/** Whether the user `u` (a row of users) holds a staff grant, by subject or verified address. */
export const IS_STAFF_USER = `EXISTS (SELECT 1 FROM admins a
  WHERE (a.uid = u.sub AND a.uid_issuer = u.issuer) OR (u.email_verified AND a.email = u.email))`;

/** last_seen_at is written at most this often, so page views do not each cost a write. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/** A new session for a user who just signed in: always a fresh token (no fixation). */
export async function createSession(
  db: Queryable,
  user: Pick<SessionUser, "issuer" | "sub">,
  config: SessionConfig,
  now: Date = new Date(),
): Promise<NewSession> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + config.maxMs);
  // Sign-ins are rare: a good moment to drop sessions that can no longer be used.
  await db.query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2", [
    now,
    new Date(now.getTime() - config.idleMs),
  ]);
  await db.query(
    `INSERT INTO sessions (id, user_issuer, user_sub, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $4, $5)`,
    [tokenId(token), user.issuer, user.sub, now, expiresAt],
  );
  return { token, expiresAt };
}

/**
 * The signed-in user of a session token, or null when unknown, idle too long or past its
 * absolute end (such a session is deleted). Refreshes last_seen_at at most once a minute.
 */
export async function findSessionUser(
  db: Queryable,
  token: string | undefined,
  config: SessionConfig,
  now: Date = new Date(),
): Promise<SessionUser | null> {
  const id = tokenId(token);
  if (!id) return null;
  const [row] = await db.query<{
    last_seen_at: Date;
    expires_at: Date;
    issuer: string;
    sub: string;
    email: string | null;
    email_verified: boolean;
    name: string | null;
    staff: boolean;
  }>(
    `SELECT s.last_seen_at, s.expires_at, u.issuer, u.sub, u.email, u.email_verified, u.name,
       ${IS_STAFF_USER} AS staff
     FROM sessions s JOIN users u ON u.issuer = s.user_issuer AND u.sub = s.user_sub
     WHERE s.id = $1`,
    [id],
  );
  if (!row) return null;
  const lastSeen = new Date(row.last_seen_at).getTime();
  // Staff sessions may end sooner (STAFF_SESSION_HOURS; docs/behaviour.md §6).
  const idleMs = row.staff ? Math.min(config.idleMs, config.staffIdleMs) : config.idleMs;
  const idle = now.getTime() - lastSeen >= idleMs;
  if (idle || new Date(row.expires_at).getTime() <= now.getTime()) {
    await db.query("DELETE FROM sessions WHERE id = $1", [id]);
    return null;
  }
  if (now.getTime() - lastSeen >= LAST_SEEN_RESOLUTION_MS) {
    await db.query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1", [id, now]);
  }
  return {
    issuer: row.issuer,
    sub: row.sub,
    email: row.email,
    emailVerified: row.email_verified,
    name: row.name,
  };
}

/** Logout: the token stops working at once, wherever it was copied to. */
export async function destroySession(db: Queryable, token: string | undefined): Promise<void> {
  const id = tokenId(token);
  if (id) await db.query("DELETE FROM sessions WHERE id = $1", [id]);
}

export function sessionTokenFromCookies(
  cookieHeader: string | null | undefined,
  config: SessionConfig,
): string | undefined {
  return readCookie(cookieHeader, config.cookieName);
}

/** Set-Cookie for a new session; the browser drops it at the absolute end. */
export function sessionCookie(
  config: SessionConfig,
  session: NewSession,
  now: Date = new Date(),
): string {
  return serializeCookie(config.cookieName, session.token, {
    maxAgeSeconds: (session.expiresAt.getTime() - now.getTime()) / 1000,
    secure: config.secureCookie,
  });
}

/** Set-Cookie that removes the session cookie. */
export function clearedSessionCookie(config: SessionConfig): string {
  return serializeCookie(config.cookieName, "", { maxAgeSeconds: 0, secure: config.secureCookie });
}
