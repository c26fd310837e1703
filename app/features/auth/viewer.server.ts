// Who is asking: for the root loader and the staff guard (getViewer; staff-guard.server.ts).
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { log } from "~/shared/logger.server";
import { isAdmin } from "./admins.server";
import { findSessionUser, sessionTokenFromCookies } from "./sessions.server";
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
  return { user, isAdmin: await adminOrFalse(db, user), signIn: signInOptions(env) };
}

/** docs/behaviour.md §4: a failed lookup is logged and the user is treated as non-admin. */
async function adminOrFalse(db: Db, user: SessionUser | null): Promise<boolean> {
  if (!user) return false;
  try {
    return await isAdmin(db, user);
  } catch (error) {
    log().error({ err: error }, "Failed to check admin status");
    return false;
  }
}

export function signInOptions(env: Pick<Env, "oidc" | "devIdentityProvider">): Viewer["signIn"] {
  return {
    available: Boolean(env.oidc) || env.devIdentityProvider,
    // The development provider stands in for Google, so the label stays the documented one (docs/behaviour.md §10).
    providerName: env.oidc?.providerName ?? "Google",
  };
}
