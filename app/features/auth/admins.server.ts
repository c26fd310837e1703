// The staff registry (docs/behaviour.md §6: admins/{uid}; "Staff roles"). Grants are kept by uid
// and/or by lowercase email (db/migrations/0002_auth.sql), each with its role (0023).
import type { Db, Queryable } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { HttpError } from "~/shared/http-error.server";
import { emailOrNull, normalizeEmail } from "./emails";
import { ROLES, type Role } from "./permissions";
import type { SessionUser } from "./viewer";

// Refusals of a change to the registry (HTTP 400, their message shown as it is).
/** The site always keeps an Owner: the last one is neither removed nor given another role. */
export class LastAdminError extends HttpError {
  constructor() {
    super(400, "Cannot remove or demote the last Owner.");
    this.name = "LastAdminError";
  }
}

/** ADMIN_EMAILS grants its addresses at every start, so revoking one of them would not last. */
export class ListedInAdminEmailsError extends HttpError {
  constructor(readonly address: string) {
    super(
      400,
      `Cannot revoke ${address}: it is listed in ADMIN_EMAILS, which grants admin again at every start. Remove it from ADMIN_EMAILS and restart the server first.`,
    );
    this.name = "ListedInAdminEmailsError";
  }
}

export interface AdminGrant {
  /** The granted address, or the bound user's address for a grant made by uid only. */
  email: string | null;
  /** The user's sub once they signed in (or when granted by uid); null before that. */
  uid: string | null;
  /** The bound user's display name, when known. */
  name: string | null;
  /** ISO 8601. */
  grantedAt: string;
  grantedBy: string | null;
  role: Role;
  /** ISO 8601: when the bound user last signed in; null before their first sign-in. */
  lastSignedInAt: string | null;
}

/** Least trusted first: a person with two grants that disagree gets the lesser role. */
const LEAST_TRUSTED_FIRST = `array_position(ARRAY['${[...ROLES].reverse().join("','")}']::text[], role)`;

/** The user's role: from the grants that name their sub or their VERIFIED email; else null. */
export async function staffRoleOf(db: Queryable, user: SessionUser | null): Promise<Role | null> {
  if (!user) return null;
  // An unverified address proves nothing: anyone can type someone else's email at some providers.
  const email = user.emailVerified ? emailOrNull(user.email) : null;
  const rows = await db.query<{ role: Role }>(
    `SELECT role FROM admins
     WHERE (uid = $1 AND uid_issuer = $3) OR ($2::text IS NOT NULL AND email = $2::text)
     ORDER BY ${LEAST_TRUSTED_FIRST} LIMIT 1`,
    [user.sub, email, user.issuer],
  );
  return rows[0]?.role ?? null;
}

/** True when a grant of any role names the user's sub or their VERIFIED email. */
export async function isAdmin(db: Queryable, user: SessionUser | null): Promise<boolean> {
  return (await staffRoleOf(db, user)) !== null;
}

/**
 * Grants a role (Owner unless told) to an address (idempotent: an address that already has a
 * grant keeps it, role and all). Binds the grant at once when a user with that verified address
 * exists. Returns false when the address already had a grant.
 */
export async function grantAdmin(
  db: Queryable,
  email: string,
  grantedBy?: string,
  role: Role = "owner",
): Promise<boolean> {
  const address = normalizeEmail(email);
  const by = grantedBy?.trim().slice(0, 200) || null;
  const rows = await db.query(
    `INSERT INTO admins (email, uid, uid_issuer, granted_by, role)
     SELECT $1, u.sub, coalesce(u.issuer, ''), $2, $3
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (SELECT issuer, sub FROM users WHERE email = $1 AND email_verified
                        ORDER BY last_login_at DESC LIMIT 1) AS u ON true
     ON CONFLICT (email) DO NOTHING
     RETURNING id`,
    [address, by, role],
  );
  if (rows.length > 0) logEvent("admin granted", by, { email: address, role });
  return rows.length > 0;
}

/** ADMIN_EMAILS at start: validates every address first, then grants the missing ones. */
export async function grantAdminEmails(
  db: Queryable,
  emails: readonly string[],
): Promise<string[]> {
  const addresses = [...new Set(emails.map(normalizeEmail))];
  const added: string[] = [];
  for (const address of addresses) {
    if (await grantAdmin(db, address, "ADMIN_EMAILS")) added.push(address);
  }
  return added;
}

/**
 * Removes the grant for this address and any grant bound to a user with this address.
 * Returns how many grants were removed (0: the address was not an admin).
 * Throws LastAdminError, changing nothing, when no admin would remain, and
 * ListedInAdminEmailsError for an address in `adminEmails` (this environment's ADMIN_EMAILS).
 */
export async function revokeAdmin(
  db: Db,
  email: string,
  adminEmails: readonly string[],
  /** Who revokes (their e-mail, "cli"), for the `admin revoked` event line. */
  revokedBy: string | null = null,
): Promise<number> {
  const address = normalizeEmail(email);
  if (adminEmails.some((listed) => emailOrNull(listed) === address)) {
    throw new ListedInAdminEmailsError(address);
  }
  const removed = await db.transaction(async (tx) => {
    // Two revocations at once must not both see "one other Owner left" and leave none.
    await tx.query("LOCK TABLE admins IN SHARE ROW EXCLUSIVE MODE");
    const removed = await tx.query<{ role: Role; uid_issuer: string; uid: string | null }>(
      `DELETE FROM admins WHERE ${GRANTS_OF_ADDRESS} RETURNING role, uid_issuer, uid`,
      [address],
    );
    if (removed.length === 0) return 0;
    await keepAnOwner(tx, removed);
    // Removed staff are signed out everywhere, and their passkeys go (docs/behaviour.md §6,
    // "Staff roles"): their users by the address, and the users their grants were bound to.
    const bound = removed.filter((grant) => grant.uid !== null);
    for (const table of ["sessions", "staff_passkeys"]) {
      await tx.query(
        `DELETE FROM ${table} WHERE (user_issuer, user_sub) IN (
           SELECT issuer, sub FROM users WHERE email = $1 AND email_verified
           UNION SELECT * FROM unnest($2::text[], $3::text[]))`,
        [address, bound.map((g) => g.uid_issuer), bound.map((g) => g.uid)],
      );
    }
    return removed.length;
  });
  // After the commit: a refused revoke changed nothing, so it is no event.
  if (removed > 0) logEvent("admin revoked", revokedBy, { email: address, removed });
  return removed;
}

/** The grants of one person: by their address, or bound to a user with that address. */
const GRANTS_OF_ADDRESS =
  "(email = $1 OR (uid_issuer, uid) IN (SELECT issuer, sub FROM users WHERE email = $1))";

/**
 * Ends every session of the person with this address: each of their users (signed in through
 * the identity provider, or by e-mail), and a user bound to one of their grants.
 */
export async function endSessionsOf(tx: Queryable, address: string): Promise<void> {
  await tx.query(
    `DELETE FROM sessions WHERE (user_issuer, user_sub) IN (
       SELECT issuer, sub FROM users WHERE email = $1 AND email_verified
       UNION SELECT uid_issuer, uid FROM admins WHERE email = $1 AND uid IS NOT NULL)`,
    [address],
  );
}

/** 'Sign out everywhere': every session of this user and of their other sign-ins by address. */
export async function endSessionsOfUser(db: Queryable, user: SessionUser): Promise<void> {
  await db.query("DELETE FROM sessions WHERE user_issuer = $1 AND user_sub = $2", [
    user.issuer,
    user.sub,
  ]);
  const email = user.emailVerified ? emailOrNull(user.email) : null;
  if (email) await endSessionsOf(db, email);
}

/** Throws LastAdminError (rolling the change back) when it took away the last Owner. */
async function keepAnOwner(tx: Queryable, changed: readonly { role: Role }[]) {
  if (!changed.some((grant) => grant.role === "owner")) return;
  const [left] = await tx.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM admins WHERE role = 'owner'",
  );
  if (!left || left.count === 0) throw new LastAdminError();
}

/**
 * Gives every grant of this person another role. Returns how many grants changed (0: not
 * staff). Throws LastAdminError, changing nothing, when no Owner would remain.
 */
export async function setStaffRole(
  db: Db,
  email: string,
  role: Role,
  changedBy: string | null = null,
): Promise<number> {
  const address = normalizeEmail(email);
  const changed = await db.transaction(async (tx) => {
    await tx.query("LOCK TABLE admins IN SHARE ROW EXCLUSIVE MODE");
    // The roles before the change, for the last-Owner check.
    const before = await tx.query<{ role: Role }>(
      `SELECT role FROM admins WHERE ${GRANTS_OF_ADDRESS} FOR UPDATE`,
      [address],
    );
    if (before.length === 0) return 0;
    await tx.query(`UPDATE admins SET role = $2 WHERE ${GRANTS_OF_ADDRESS}`, [address, role]);
    if (role !== "owner") await keepAnOwner(tx, before);
    // A new role starts with a new sign-in (docs/behaviour.md §6, "Staff roles").
    if (before.some((grant) => grant.role !== role)) await endSessionsOf(tx, address);
    return before.length;
  });
  if (changed > 0) logEvent("staff role changed", changedBy, { email: address, role });
  return changed;
}

/** Every grant, for the 'Staff' page and the CLI. */
export async function listAdmins(db: Queryable): Promise<AdminGrant[]> {
  const rows = await db.query<{
    email: string | null;
    uid: string | null;
    name: string | null;
    granted_at: Date | string;
    granted_by: string | null;
    role: Role;
    last_login_at: Date | string | null;
  }>(
    `SELECT coalesce(a.email, u.email) AS email, a.uid, u.name, a.granted_at, a.granted_by,
       a.role, u.last_login_at
     FROM admins a LEFT JOIN users u ON u.issuer = a.uid_issuer AND u.sub = a.uid
     ORDER BY coalesce(a.email, u.email, a.uid), a.id`,
  );
  return rows.map((r) => ({
    email: r.email,
    uid: r.uid,
    name: r.name,
    grantedAt: new Date(r.granted_at).toISOString(),
    grantedBy: r.granted_by,
    role: r.role,
    lastSignedInAt: r.last_login_at === null ? null : new Date(r.last_login_at).toISOString(),
  }));
}

/**
 * At sign-in: grants made by this user's verified address now also name their uid (and its
 * issuer), and grants by this sub from before migration 0008 (uid_issuer '') become this
 * issuer's (users.server.ts claimLegacyUser does the same for the user row).
 */
export async function bindAdminGrants(db: Queryable, user: SessionUser): Promise<void> {
  if (user.issuer !== "") {
    await db.query(
      `UPDATE admins a SET uid_issuer = $1
       WHERE a.uid_issuer = '' AND a.uid = $2
         AND (a.email IS NOT NULL OR NOT EXISTS (
           SELECT 1 FROM admins b WHERE b.email IS NULL AND b.uid_issuer = $1 AND b.uid = $2))`,
      [user.issuer, user.sub],
    );
  }
  const email = user.emailVerified ? emailOrNull(user.email) : null;
  if (!email) return;
  await db.query("UPDATE admins SET uid = $1, uid_issuer = $3 WHERE uid IS NULL AND email = $2", [
    user.sub,
    email,
    user.issuer,
  ]);
}
