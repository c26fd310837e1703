// /admin/applications, 'Applications' (docs/behaviour.md §32): every submitted online
// application, newest first, 50 a page. Admins only.
import { Link } from "react-router";
import { APPLICATION_STATUSES } from "~/domain/rental-application";
import { listApplications } from "~/features/applications/index.server";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { formatWhen } from "~/shared/format-when";
import type { Route } from "./+types/admin-applications";

const PAGE_SIZE = 50;

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Applications", "Admin: online rental applications.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "applications");
  const key = context.applications.key;
  if (!key) return { closed: true, applications: [], total: 0 };
  const { applications, total } = await listApplications(context.db, key, {
    limit: PAGE_SIZE,
    within: viewer.listings,
  });
  return { closed: false, applications, total };
}

export default function AdminApplications({ loaderData }: Route.ComponentProps) {
  const { applications, total, closed } = loaderData;
  return (
    <section>
      <h1>Applications</h1>
      {closed ? (
        <p role="alert">APPLICATION_DATA_KEY is not set: applications are closed.</p>
      ) : null}
      {applications.length === 0 ? (
        <p>No applications yet.</p>
      ) : (
        <>
          <p>
            {total} application{total === 1 ? "" : "s"}
            {total > applications.length ? `; the newest ${applications.length} are shown` : ""}.
          </p>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Applicant</th>
                <th scope="col">Property</th>
                <th scope="col">Submitted</th>
                <th scope="col">Status</th>
                <th scope="col">Other adults</th>
              </tr>
            </thead>
            <tbody>
              {applications.map((a) => (
                <tr key={a.id}>
                  <td>
                    <Link to={`/admin/applications/${a.id}`}>{a.applicantName || `#${a.id}`}</Link>
                  </td>
                  <td>{a.listingAddress ?? "—"}</td>
                  <td>{formatWhen(a.submittedAt)}</td>
                  <td>{APPLICATION_STATUSES[a.status]}</td>
                  <td>{a.adults === 0 ? "None" : `${a.adultsDone} of ${a.adults} finished`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
