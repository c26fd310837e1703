import { parseTableQuery } from "~/domain/listing-table";
import { CsvTransfer, ListingTable } from "~/features/admin";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { listTable } from "~/features/listings/index.server";
import type { Route } from "./+types/admin-listings";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("All listings", "Admin: every listing of both kinds in one table.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireStaff(context, "listings:read");
  const query = parseTableQuery(new URL(request.url).searchParams);
  return { query, ...(await listTable(context.db, query, context.env.staleAfterDays)) };
}

export default function AdminListings({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1>All listings</h1>
      <ListingTable rows={loaderData.rows} total={loaderData.total} query={loaderData.query} />
      <CsvTransfer />
    </section>
  );
}
