import { parseTableQuery } from "~/domain/listing-table";
import { CsvTransfer, ListingTable } from "~/features/admin";
import { can, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { listTable } from "~/features/listings/index.server";
import type { Route } from "./+types/admin-listings";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("All listings", "Admin: every listing of both kinds in one table.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "listings:read");
  const query = parseTableQuery(new URL(request.url).searchParams);
  // What the role may do from here (docs/behaviour.md §6, "Staff roles"); the API decides again.
  const may = {
    edit: can(viewer, "listings:write"),
    availability: can(viewer, "listings:availability"),
  };
  return { query, may, ...(await listTable(context.db, query, context.env.staleAfterDays)) };
}

export default function AdminListings({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1>All listings</h1>
      <ListingTable
        rows={loaderData.rows}
        total={loaderData.total}
        query={loaderData.query}
        may={loaderData.may}
      />
      <CsvTransfer mayImport={loaderData.may.edit} />
    </section>
  );
}
