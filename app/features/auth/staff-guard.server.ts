// Authorisation: one guard for pages, downloads and the API, consulting the one permission table
// (permissions.ts; docs/behaviour.md §6, "Staff roles"; docs/architecture.md, "Who may do what").
import type { RequestHandler } from "express";
import { type AppLoadContext, data } from "react-router";
import { sendApiRefusal } from "~/shared/api-refusal.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { can, type Permission } from "./permissions";
import type { Viewer } from "./viewer";
import { getViewer } from "./viewer.server";

/**
 * A staff page's loader or action: anyone without the permission gets the ordinary 404 page,
 * so the admin area tells nothing (docs/behaviour.md §6).
 */
export function requireStaff(context: AppLoadContext, permission: Permission): Viewer {
  if (!can(context.viewer, permission)) throw data(null, { status: 404 });
  return context.viewer;
}

/**
 * A download route's answer where there is nothing to download: any method but GET, anyone
 * without the permission, an unknown id. The same plain 404 for all, so it tells nothing.
 */
export const downloadNotFound = () =>
  new Response("Not Found", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });

/** Who did it, for the history and the audit of what staff do. */
export const actorOf = (viewer: Pick<Viewer, "user">) =>
  viewer.user?.email ?? viewer.user?.sub ?? null;

/**
 * Express middleware for the staff API: 401 when signed out, 403 without the permission;
 * otherwise `res.locals.viewer` holds the Viewer (looked up once per request, however many
 * guards a route has).
 */
export function requireStaffApi(
  services: { db: Db; env: Pick<Env, "oidc" | "devIdentityProvider" | "session"> },
  permission: Permission,
): RequestHandler {
  return async (req, res, next) => {
    try {
      const viewer: Viewer =
        res.locals.viewer ?? (await getViewer(services.db, services.env, req.headers.cookie));
      if (!viewer.user) {
        sendApiRefusal(res, 401, "Sign in required.");
        return;
      }
      if (!can(viewer, permission)) {
        // (The words predate the roles: API clients and tests know them.)
        sendApiRefusal(res, 403, "Admins only.");
        return;
      }
      res.locals.viewer = viewer;
      next();
    } catch (error) {
      next(error);
    }
  };
}
