// /admin/admins was 'Manage admins': it is 'Staff' now (docs/behaviour.md §6, "Staff roles").
// A permanent redirect for bookmarks and old links. No action: a post here is 405, as on any
// page without a form (a redirected write would look accepted to a client).
import { redirect } from "react-router";
import type { Route } from "./+types/manage-admins";

const toStaff = (request: Request) => {
  const url = new URL(request.url);
  return redirect(`/admin/staff${url.search}`, 308);
};

export const loader = ({ request }: Route.LoaderArgs) => toStaff(request);
