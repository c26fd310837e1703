import { type AppLoadContext, data } from "react-router";

/** Admin routes exist only for admins: anyone else gets the ordinary 404 page. */
export function requireAdminPage(context: AppLoadContext) {
  if (!context.viewer.isAdmin) throw data(null, { status: 404 });
  return context.viewer;
}
