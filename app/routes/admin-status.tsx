// /admin/status, 'Status' (docs/operations.md, "Scheduled jobs and the 'Status' page"): each scheduled job's last run, next run
// and last error, the outbox's waiting and failed counts, the database and storage in use, and
// the version.
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { outboxCounts } from "~/features/mail/index.server";
import { readSiteStatus } from "~/features/operations/index.server";
import { formatWhen } from "~/shared/format-when";
// Read at build time: the built server has no package.json beside it.
import packageJson from "../../package.json";
import type { Route } from "./+types/admin-status";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Status", "Admin: scheduled jobs, the outbox, the database and storage.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "status");
  const [status, outbox] = await Promise.all([
    readSiteStatus(context.db, context.env),
    outboxCounts(context.db),
  ]);
  return {
    ...status,
    outbox,
    version: packageJson.version,
    sending: context.env.mail.smtpUrl !== null,
  };
}

const when = (iso: string | null) =>
  iso ? <time dateTime={iso}>{formatWhen(iso)}</time> : "Not yet";

/** Bytes as people read them: 1.2 MB. */
function size(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${unit === 0 ? n : n.toFixed(1)} ${units[unit]}`;
}

export default function Status({ loaderData }: Route.ComponentProps) {
  const { jobs, outbox, database, storage, version, sending } = loaderData;
  return (
    <section>
      <h1>Status</h1>
      <h2>Scheduled jobs</h2>
      {jobs.length === 0 ? (
        <p>No job has run yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Last run</th>
              <th scope="col">Next run</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.name}>
                <th scope="row">
                  <code>{job.name}</code>
                </th>
                <td>{when(job.lastRunAt)}</td>
                <td>{when(job.nextRunAt)}</td>
                <td>
                  {job.lastError ? (
                    <>
                      {job.lastError} ({when(job.lastErrorAt)})
                    </>
                  ) : (
                    "None"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Outbox</h2>
      <p>
        Waiting: {outbox.waiting} · Failed: {outbox.failed}
        {sending ? "" : " · Nothing is sent: no mail server is set up (SMTP_URL)."}
      </p>
      <h2>Database and storage</h2>
      <dl>
        <dt>Database</dt>
        <dd>
          {database.kind} {database.version}, {size(database.bytes)}
        </dd>
        <dt>Photos</dt>
        <dd>{storage.photos}</dd>
        <dt>Documents</dt>
        <dd>{storage.documents}</dd>
        <dt>Version</dt>
        <dd>{version}</dd>
      </dl>
    </section>
  );
}
