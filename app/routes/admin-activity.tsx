// /admin/activity, 'Activity' (docs/behaviour.md §6, "Activity"): who did what and when,
// newest first, 50 a page, by person and by kind. Owners only.
import { Form, Link } from "react-router";
import {
  ACTIVITY_PAGE_SIZE,
  activityChoices,
  listActivity,
} from "~/features/activity/index.server";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/admin-activity";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Activity", "Admin: who did what and when.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireStaff(context, "activity");
  const params = new URL(request.url).searchParams;
  const asked = Number(params.get("page") ?? "1");
  const page = Number.isSafeInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1;
  const who = params.get("who") || undefined;
  const kind = params.get("kind") || undefined;
  const { items, total } = await listActivity(context.db, { who, kind, page });
  return {
    items,
    page,
    pages: Math.max(1, Math.ceil(total / ACTIVITY_PAGE_SIZE)),
    total,
    filter: { who: who ?? "", kind: kind ?? "" },
    ...(await activityChoices(context.db)),
  };
}

/** An event's details as one line: `key: value`, in the order they were given. */
const detailLine = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(", ");

const sentence = (kind: string) => kind.charAt(0).toUpperCase() + kind.slice(1);

export default function Activity({ loaderData }: Route.ComponentProps) {
  const { items, page, pages, filter, people, kinds, total } = loaderData;
  const query = (to: number) => {
    const q = new URLSearchParams();
    if (filter.who) q.set("who", filter.who);
    if (filter.kind) q.set("kind", filter.kind);
    q.set("page", String(to));
    return `?${q}`;
  };
  return (
    <section>
      <h1>Activity</h1>
      <Form method="get" className="table-search">
        <label htmlFor="activity-who">Person</label>{" "}
        <select id="activity-who" name="who" defaultValue={filter.who} className="form-select">
          <option value="">Everyone</option>
          {people.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>{" "}
        <label htmlFor="activity-kind">Kind</label>{" "}
        <select id="activity-kind" name="kind" defaultValue={filter.kind} className="form-select">
          <option value="">Everything</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {sentence(k)}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="btn btn-secondary btn-sm">
          Show
        </button>
      </Form>
      <p>{`${total} event${total === 1 ? "" : "s"}`}</p>
      {items.length === 0 ? (
        <p>Nothing here yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-testid="activity-row">
                <td>
                  <time dateTime={item.at}>{new Date(item.at).toLocaleString("en-US")}</time>
                </td>
                <td>{item.who ?? "—"}</td>
                <td>{sentence(item.kind)}</td>
                <td>{detailLine(item.details)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="inbox-pages">
          {page > 1 ? <Link to={query(page - 1)}>Newer</Link> : null}{" "}
          {page < pages ? <Link to={query(page + 1)}>Older</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
