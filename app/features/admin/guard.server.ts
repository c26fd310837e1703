import { type AppLoadContext, data } from "react-router";

/** Admin routes exist only for admins: anyone else gets the ordinary 404 page. */
export function requireAdminPage(context: AppLoadContext) {
  if (!context.viewer.isAdmin) throw data(null, { status: 404 });
  return context.viewer;
}

/**
 * A download route's answer where there is nothing to download: any method but GET, anyone but
 * an admin, an unknown id. The same plain 404 for all, so it tells nothing.
 */
export const downloadNotFound = () =>
  new Response("Not Found", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });

/** Who did it, for the history of what staff do. */
export const actorOf = (viewer: AppLoadContext["viewer"]) =>
  viewer.user?.email ?? viewer.user?.sub ?? null;
