// Who is asking: for the root loader (getViewer) and for admin-only HTTP endpoints (requireAdmin).
import type { RequestHandler } from "express";
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

/**
 * Express middleware for admin-only endpoints: 401 when signed out, 403 for non-admins,
 * otherwise `res.locals.viewer` holds the Viewer.
 */
export function requireAdmin(services: { db: Db; env: ViewerEnv }): RequestHandler {
  return async (req, res, next) => {
    try {
      const viewer = await getViewer(services.db, services.env, req.headers.cookie);
      if (!viewer.user) {
        res.status(401).json({ error: "Sign in required." });
        return;
      }
      if (!viewer.isAdmin) {
        res.status(403).json({ error: "Admins only." });
        return;
      }
      res.locals.viewer = viewer;
      next();
    } catch (error) {
      next(error);
    }
  };
}
