// Who is asking: for the root loader and the staff guard (getViewer; staff-guard.server.ts).
import type { Db, Queryable } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { log } from "~/shared/logger.server";
import { staffRoleOf } from "./admins.server";
import { emailOrNull } from "./emails";
import { isAdminRole, type Role } from "./permissions";
import { findSessionUser, sessionTokenFromCookies } from "./sessions.server";
import { listingScopeOf } from "./staff-listings.server";
import type { SessionUser, Viewer } from "./viewer";

type ViewerEnv = Pick<Env, "oidc" | "devIdentityProvider" | "session">;

export async function getViewer(
  db: Db,
  env: ViewerEnv,
  cookieHeader: string | undefined,
  now: Date = new Date(),
): Promise<Viewer> {
  const token = sessionTokenFromCookies(cookieHeader, env.session);
  const user = token ? await findSessionUser(db, token, env.session, now) : null;
  const role = await roleOrNone(db, user);
  // Read only for a Leasing agent, whose grant may be limited to some listings.
  const listings = role === "leasing-agent" ? await listingScopeOf(db, user, role) : null;
  return { user, role, isAdmin: isAdminRole(role), listings, signIn: signInOptions(env) };
}

/** docs/behaviour.md §4: a failed lookup is logged and the user is treated as non-admin. */
async function roleOrNone(db: Db, user: SessionUser | null): Promise<Role | null> {
  if (!user) return null;
  try {
    return await staffRoleOf(db, user);
  } catch (error) {
    log().error({ err: error }, "Failed to check admin status");
    return null;
  }
}

export function signInOptions(env: Pick<Env, "oidc" | "devIdentityProvider">): Viewer["signIn"] {
  return {
    available: Boolean(env.oidc) || env.devIdentityProvider,
    // The development provider stands in for Google, so the label stays the documented one (docs/behaviour.md §10).
    providerName: env.oidc?.providerName ?? "Google",
  };
}

/**
 * The staff role and listings of a known user as they are now, and when their newest grant was
 * made, for access without a session (a private calendar feed, docs/behaviour.md §33): null when
 * the user is gone or no staff.
 */
export async function staffAccessOf(
  db: Queryable,
  key: Pick<SessionUser, "issuer" | "sub">,
): Promise<(Pick<Viewer, "role" | "listings"> & { grantedAt: Date }) | null> {
  const [row] = await db.query<{
    email: string | null;
    email_verified: boolean;
    name: string | null;
  }>("SELECT email, email_verified, name FROM users WHERE issuer = $1 AND sub = $2", [
    key.issuer,
    key.sub,
  ]);
  if (!row) return null;
  const user: SessionUser = {
    issuer: key.issuer,
    sub: key.sub,
    email: row.email,
    emailVerified: row.email_verified,
    name: row.name,
  };
  const role = await staffRoleOf(db, user);
  if (!role) return null;
  // As staffRoleOf reads the grants: by sub, or by the VERIFIED address.
  const email = user.emailVerified ? emailOrNull(user.email) : null;
  const [grant] = await db.query<{ at: Date }>(
    `SELECT max(granted_at) AS at FROM admins
     WHERE (uid = $1 AND uid_issuer = $3) OR ($2::text IS NOT NULL AND email = $2::text)`,
    [user.sub, email, user.issuer],
  );
  return {
    role,
    listings: await listingScopeOf(db, user, role),
    grantedAt: new Date(grant?.at ?? 0),
  };
}
