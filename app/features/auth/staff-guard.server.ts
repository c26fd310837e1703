// Authorisation: one permission table, consulted by one guard, for pages, downloads and the API
// (docs/behaviour.md §6; docs/architecture.md, "Who may do what"). Today staff are the admins and
// every permission is theirs; a role is a column of this table, so more roles change it alone.
import type { RequestHandler } from "express";
import { type AppLoadContext, data } from "react-router";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Viewer } from "./viewer";
import { getViewer } from "./viewer.server";

/** The staff roles there are. */
export type Role = "admin";

/** Who may do what: each capability of the admin area and the roles that have it. */
export const PERMISSIONS = {
  /** 'All listings', a listing's history. */
  "listings:read": ["admin"],
  /** Add, edit, delete, photos, availability, CSV import, 'Recently deleted', erase for good. */
  "listings:write": ["admin"],
  /** The site settings and featured listings. */
  "site:write": ["admin"],
  /** 'Listing feeds': who fetched them, and their settings. */
  feeds: ["admin"],
  /** The leads inbox, its answers and export. */
  leads: ["admin"],
  /** Applications: read, status, notes, documents, 'Download PDF'. */
  applications: ["admin"],
  /** The outbox of outgoing e-mail. */
  outbox: ["admin"],
  /** 'Manage admins'. */
  staff: ["admin"],
  /** 'Status': the scheduler's jobs, the outbox's counts, the database, storage and version. */
  status: ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** The viewer's role, or none for anyone who is not staff. */
export function roleOf(viewer: Pick<Viewer, "isAdmin">): Role | null {
  return viewer.isAdmin ? "admin" : null;
}

/** Whether the viewer may do what `permission` stands for. */
export function can(viewer: Pick<Viewer, "isAdmin">, permission: Permission): boolean {
  const role = roleOf(viewer);
  return role !== null && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

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
 * otherwise `res.locals.viewer` holds the Viewer.
 */
export function requireStaffApi(
  services: { db: Db; env: Pick<Env, "oidc" | "devIdentityProvider" | "session"> },
  permission: Permission,
): RequestHandler {
  return async (req, res, next) => {
    try {
      const viewer = await getViewer(services.db, services.env, req.headers.cookie);
      if (!viewer.user) {
        res.status(401).json({ error: "Sign in required." });
        return;
      }
      if (!can(viewer, permission)) {
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
