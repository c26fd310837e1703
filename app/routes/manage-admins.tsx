// /admin/admins was 'Manage admins': it is 'Staff' now (docs/behaviour.md §6, "Staff roles").
// A permanent redirect for bookmarks and old links, with the query kept; a post is not followed.
import { redirect } from "react-router";
import type { Route } from "./+types/manage-admins";

const toStaff = (request: Request) => {
  const url = new URL(request.url);
  return redirect(`/admin/staff${url.search}`, 308);
};

export const loader = ({ request }: Route.LoaderArgs) => toStaff(request);
export const action = ({ request }: Route.ActionArgs) => toStaff(request);
