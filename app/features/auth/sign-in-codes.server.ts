// Sign-in without an identity provider (docs/behaviour.md §6, "Staff sign-in"): a 6-digit code
// e-mailed to a staff address, or a single-use link printed by `npm run admin -- sign-in-link`.
// Either ends in the same session as an OpenID Connect sign-in.
import { createHash, randomBytes, randomInt } from "node:crypto";
import { enqueueMail } from "~/features/mail/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { bindAdminGrants } from "./admins.server";
import { emailOrNull } from "./emails";
import { createSession, type NewSession, type SessionConfig } from "./sessions.server";
import { newToken, tokenId } from "./tokens.server";
import { upsertUser } from "./users.server";
import type { SessionUser } from "./viewer";

/** The issuer of users who sign in by e-mail: the address itself is their subject. */
export const EMAIL_ISSUER = "urn:leasing-site:email";

export const CODE_TTL_MS = 10 * 60_000;
export const LINK_TTL_MS = 15 * 60_000;
/** A code ends after this many wrong tries. */
export const CODE_TRIES = 5;
/** Codes e-mailed to one address per hour; beyond it the same answer, and no mail. */
export const CODES_PER_ADDRESS_PER_HOUR = 5;
/** Codes asked for and tried per client per hour (the feature's `sign-in-code` limit). */
export const CODE_POSTS_PER_CLIENT_PER_HOUR = 30;

const hashCode = (salt: string, code: string) =>
  createHash("sha256").update(`${salt}:${code}`).digest("hex");

/** Whether this address is staff: a grant by it, or bound to a user with it verified. */
async function isStaffAddress(db: Queryable, email: string): Promise<boolean> {
  const [row] = await db.query<{ staff: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM admins WHERE email = $1 OR (uid_issuer, uid) IN (
         SELECT issuer, sub FROM users WHERE email = $1 AND email_verified)
     ) AS staff`,
    [email],
  );
  return row?.staff === true;
}

export interface CodeMail {
  company: string;
  publicUrl: string;
}

/**
 * 'E-mail me a code': for a staff address (and within its hourly count), a new code by e-mail
 * through the outbox. Anyone else gets the same answer and no mail, so the page tells nobody
 * who is staff. Returns whether a code was sent (for the log and tests only).
 */
export async function sendSignInCode(
  db: Db,
  address: string,
  mail: CodeMail,
  now: Date = new Date(),
): Promise<boolean> {
  const email = emailOrNull(address);
  if (!email) return false;
  return db.transaction(async (tx) => {
    // Ended codes and links are kept a day (for the hourly count), then go.
    await tx.query("DELETE FROM sign_in_codes WHERE expires_at < $1", [
      new Date(now.getTime() - 24 * 3_600_000),
    ]);
    if (!(await isStaffAddress(tx, email))) return false;
    // Taken per address, so two requests at once count each other.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`sign-in-code:${email}`]);
    const [recent] = await tx.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM sign_in_codes
       WHERE kind = 'code' AND email = $1 AND created_at > $2`,
      [email, new Date(now.getTime() - 3_600_000)],
    );
    if ((recent?.count ?? 0) >= CODES_PER_ADDRESS_PER_HOUR) return false;
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const salt = randomBytes(16).toString("hex");
    // A new code ends the earlier ones: only the latest e-mail's code works.
    await tx.query(
      "UPDATE sign_in_codes SET used_at = $2 WHERE kind = 'code' AND email = $1 AND used_at IS NULL",
      [email, now],
    );
    await tx.query(
      `INSERT INTO sign_in_codes (kind, email, secret_hash, salt, created_at, expires_at)
       VALUES ('code', $1, $2, $3, $4, $5)`,
      [email, hashCode(salt, code), salt, now, new Date(now.getTime() + CODE_TTL_MS)],
    );
    await enqueueMail(tx, {
      kind: "sign-in-code",
      to: [email],
      // The code is in the body only, which the outbox page never shows (admin-outbox.tsx).
      subject: `Your ${mail.company} sign-in code`,
      body: [
        `Your code to sign in to ${mail.company} is ${code}.`,
        "",
        `It works once, for 10 minutes, at ${mail.publicUrl.replace(/\/+$/, "")}/sign-in.`,
        "",
        "If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.",
      ].join("\n"),
    });
    return true;
  });
}

export type CodeCheck = { ok: true; session: NewSession } | { ok: false };

/**
 * 'Sign in' with the e-mailed code: the latest code of the address, unused, in time and with
 * tries left. A wrong code counts a try; the fifth ends it.
 */
export async function signInWithCode(
  db: Db,
  address: string,
  code: string,
  config: SessionConfig,
  now: Date = new Date(),
): Promise<CodeCheck> {
  const email = emailOrNull(address);
  const typed = code.replace(/\s+/g, "");
  if (!email || !/^\d{6}$/.test(typed)) return { ok: false };
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number; salt: string; secret_hash: string }>(
      `SELECT id::int AS id, salt, secret_hash FROM sign_in_codes
       WHERE kind = 'code' AND email = $1 AND used_at IS NULL AND expires_at > $2
         AND wrong_tries < $3
       ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [email, now, CODE_TRIES],
    );
    if (!row) return null;
    if (hashCode(row.salt, typed) !== row.secret_hash) {
      await tx.query("UPDATE sign_in_codes SET wrong_tries = wrong_tries + 1 WHERE id = $1", [
        row.id,
      ]);
      return null;
    }
    await tx.query("UPDATE sign_in_codes SET used_at = $2 WHERE id = $1", [row.id, now]);
    // Staff still? A code sent before a removal signs nobody in.
    if (!(await isStaffAddress(tx, email))) return null;
    return startSession(tx, email, config, now);
  });
  // A refusal names nobody: the address typed may be anyone's, not staff's.
  logEvent(result ? "sign-in" : "sign-in refused", result ? email : null, { method: "code" });
  return result ? { ok: true, session: result } : { ok: false };
}

/** `npm run admin -- sign-in-link <email>`: a link's token for a staff address, else null. */
export async function createSignInLink(
  db: Db,
  address: string,
  now: Date = new Date(),
): Promise<string | null> {
  const email = emailOrNull(address);
  if (!email) return null;
  return db.transaction(async (tx) => {
    if (!(await isStaffAddress(tx, email))) return null;
    const token = newToken();
    await tx.query(
      `INSERT INTO sign_in_codes (kind, email, secret_hash, created_at, expires_at)
       VALUES ('link', $1, $2, $3, $4)`,
      [email, tokenId(token), now, new Date(now.getTime() + LINK_TTL_MS)],
    );
    return token;
  });
}

/** The link's 'Sign in': once, within 15 minutes, for someone still staff. */
export async function signInWithLink(
  db: Db,
  token: string,
  config: SessionConfig,
  now: Date = new Date(),
): Promise<CodeCheck> {
  const hash = tokenId(token);
  if (!hash) return { ok: false };
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.query<{ email: string }>(
      `UPDATE sign_in_codes SET used_at = $2
       WHERE kind = 'link' AND secret_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING email`,
      [hash, now],
    );
    if (!row || !(await isStaffAddress(tx, row.email))) return null;
    return { email: row.email, session: await startSession(tx, row.email, config, now) };
  });
  logEvent(result ? "sign-in" : "sign-in refused", result?.email ?? null, { method: "link" });
  return result ? { ok: true, session: result.session } : { ok: false };
}

/** The user of an e-mail sign-in (named as at their last sign-in elsewhere), and a session. */
async function startSession(tx: Queryable, email: string, config: SessionConfig, now: Date) {
  const [known] = await tx.query<{ name: string }>(
    `SELECT name FROM users WHERE email = $1 AND email_verified AND name IS NOT NULL
     ORDER BY last_login_at DESC LIMIT 1`,
    [email],
  );
  const user: SessionUser = {
    issuer: EMAIL_ISSUER,
    sub: email,
    email,
    emailVerified: true,
    name: known?.name ?? null,
  };
  await upsertUser(tx, user, now);
  await bindAdminGrants(tx, user);
  return createSession(tx, user, config, now);
}
