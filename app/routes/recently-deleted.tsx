import { DeletedList } from "~/features/admin";
import { can, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { listDeleted } from "~/features/listings/index.server";
import type { Route } from "./+types/recently-deleted";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Recently deleted", "Admin: deleted listings that can be restored.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "listings:write");
  return { items: await listDeleted(context.db), mayErase: can(viewer, "listings:erase") };
}

export default function RecentlyDeleted({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1>Recently deleted</h1>
      <p>
        Deleted listings stay here for 30 days with their photos; 'Restore' brings one back as it
        was. After 30 days they are deleted for good; 'Erase for good' does it at once.
      </p>
      <DeletedList items={loaderData.items} mayErase={loaderData.mayErase} />
    </section>
  );
}
