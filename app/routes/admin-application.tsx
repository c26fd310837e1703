// /admin/applications/{id} (docs/behaviour.md §32): one application whole: every adult's answers
// and documents, status (a decision e-mails the applicant), notes, 'Viewed by' (every opening is
// recorded) and 'Download PDF'. Admins only.

import { data, Form, Link } from "react-router";
import { z } from "zod";
import {
  APPLICATION_STATUSES,
  APPLICATION_STEPS,
  DOCUMENT_KINDS,
  STAFF_STATUSES,
  STEP_FIELDS,
  type StepId,
} from "~/domain/rental-application";
import { checkStaffNotes, STAFF_NOTES_MAX } from "~/domain/staff-notes";
import {
  outsideListings,
  readApplication,
  saveApplicationNote,
  setApplicationStatus,
} from "~/features/applications/index.server";
import { actorOf, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { leadMailOf } from "~/features/leads/index.server";
import { checkedBy, parseForm, refused, succeeded } from "~/shared/action-result.server";
import { logEvent } from "~/shared/events.server";
import { formatWhen } from "~/shared/format-when";
import { ActionAnswer, TextField } from "~/ui";
import type { Route } from "./+types/admin-application";

/** At most this many characters of notes on an application. */
const GONE = "This application is no longer here.";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Application", "Admin: an online rental application.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "applications");
  const key = context.applications.key;
  const id = Number(params.id);
  if (!key || !Number.isSafeInteger(id) || (await outsideListings(context, id))) {
    throw data(null, { status: 404 });
  }
  const record = await readApplication(context.db, key, id, actorOf(viewer));
  if (!record) throw data(null, { status: 404 });
  return {
    ...record,
    applicants: record.applicants.map(({ documents, ...a }) => ({
      ...a,
      // Where a document is stored stays on the server.
      documents: documents.map(({ storageKey: _, ...d }) => d),
    })),
  };
}

const ApplicationForm = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("status"),
      status: z.enum(STAFF_STATUSES, { error: "Choose one of the statuses." }),
    }),
    z.object({
      intent: z.literal("note"),
      notes: checkedBy(checkStaffNotes).transform((checked) => checked.notes),
    }),
  ],
  { error: "Unknown action." },
);

export async function action({ context, request, params }: Route.ActionArgs) {
  const viewer = requireStaff(context, "applications");
  const key = context.applications.key;
  const id = Number(params.id);
  if (!key || !Number.isSafeInteger(id) || (await outsideListings(context, id))) {
    return refused(context, 404, GONE);
  }
  const parsed = await parseForm(request, ApplicationForm);
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  const input = parsed.data;
  if (input.intent === "status") {
    const mail = await leadMailOf(context);
    const saved = await setApplicationStatus(
      context.db,
      key,
      id,
      input.status,
      actorOf(viewer),
      mail,
    );
    if (!saved) return refused(context, 404, GONE);
    logEvent("application status changed", actorOf(viewer), {
      application: id,
      status: input.status,
    });
    return succeeded("Status saved.");
  }
  return (await saveApplicationNote(context.db, key, id, input.notes, actorOf(viewer)))
    ? succeeded("Note saved.")
    : refused(context, 404, GONE);
}

const titleOf = (step: StepId) => APPLICATION_STEPS.find((s) => s.id === step)?.title ?? step;
const ANSWER_STEPS = (position: number): Exclude<StepId, "documents" | "review">[] =>
  position === 0
    ? ["applicant", "residence", "employment", "references", "adults"]
    : ["applicant", "residence", "employment"];

function describeEvent(e: { action: string; detail: Record<string, unknown> }) {
  if (e.action === "status") return `Status: ${String(e.detail.from)} → ${String(e.detail.to)}`;
  if (e.action === "note") return "Notes saved";
  if (e.action === "download") return "Document downloaded";
  return "Opened";
}

export default function AdminApplication({ loaderData, actionData }: Route.ComponentProps) {
  const app = loaderData;
  const main = app.applicants.find((a) => a.position === 0);
  const name = main?.answers.fullName || `#${app.id}`;
  const decided = app.status === "withdrawn";
  const views = app.events.filter((e) => e.action === "viewed");
  const changes = app.events.filter((e) => e.action !== "viewed");
  return (
    <section className="admin-application">
      <p>
        <Link to="/admin/applications">All applications</Link>
      </p>
      <h1>Application from {name}</h1>
      <p>
        {app.listing.address ? `For ${app.listing.address}. ` : ""}
        {app.submittedAt ? `Submitted ${formatWhen(app.submittedAt)}.` : ""}
      </p>
      <p className="application-status">
        Status: <strong>{APPLICATION_STATUSES[app.status]}</strong> since{" "}
        <time dateTime={app.statusAt}>{formatWhen(app.statusAt)}</time>
      </p>
      <ActionAnswer answer={actionData} />
      {decided ? null : (
        <>
          <p>
            <a className="btn btn-outline" href={`/admin/applications/${app.id}/pdf`} download>
              Download PDF
            </a>
          </p>
          <Form method="post" className="admin-application-status">
            <label className="form-label" htmlFor="application-status">
              Status
            </label>
            <select
              id="application-status"
              name="status"
              className="form-control"
              defaultValue={app.status}
              key={app.status}
            >
              {STAFF_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {APPLICATION_STATUSES[s]}
                </option>
              ))}
            </select>
            <button type="submit" name="intent" value="status" className="btn btn-primary">
              Save status
            </button>
          </Form>
          <Form method="post" className="admin-application-notes">
            <TextField
              id="application-notes"
              name="notes"
              label="Notes"
              rows={3}
              defaultValue={app.notes}
              maxLength={STAFF_NOTES_MAX}
            />
            <button type="submit" name="intent" value="note" className="btn btn-outline">
              Save note
            </button>
          </Form>
          {app.applicants.map((person) => (
            <section key={person.position} className="application-person">
              <h2>
                {person.position === 0
                  ? `Applicant: ${person.answers.fullName ?? ""}`
                  : `Adult ${person.position + 1}: ${person.answers.fullName ?? ""}`}{" "}
                <small>
                  {person.completedAt
                    ? `Finished ${formatWhen(person.completedAt)}`
                    : "Not finished yet"}
                </small>
              </h2>
              {ANSWER_STEPS(person.position).map((step) => (
                <div key={step}>
                  <h3>{titleOf(step)}</h3>
                  <dl className="application-answers">
                    {STEP_FIELDS[step]
                      .filter((f) => (person.answers[f.name] ?? "").trim() !== "")
                      .map((f) => (
                        <div key={f.name}>
                          <dt>{f.label}</dt>
                          <dd>{person.answers[f.name]}</dd>
                        </div>
                      ))}
                  </dl>
                </div>
              ))}
              <h3>Documents</h3>
              {person.documents.length === 0 ? (
                <p>No documents.</p>
              ) : (
                <ul>
                  {person.documents.map((d) => (
                    <li key={d.id}>
                      <a
                        href={`/admin/applications/${app.id}/documents/${d.id}`}
                        download
                        rel="noopener"
                      >
                        {DOCUMENT_KINDS[d.kind as keyof typeof DOCUMENT_KINDS] ?? d.kind}: {d.name}
                      </a>{" "}
                      ({Math.max(1, Math.round(d.bytes / 1024))} KB)
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </>
      )}
      <h2>Viewed by</h2>
      <ul className="application-views">
        {views.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: events have no id here, and never move
          <li key={i}>
            {e.byEmail ?? "Unknown"}, <time dateTime={e.at}>{formatWhen(e.at)}</time>
          </li>
        ))}
      </ul>
      {changes.length > 0 ? (
        <>
          <h2>History</h2>
          <ul>
            {changes.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <li key={i}>
                {describeEvent(e)}, {e.byEmail ?? "Unknown"},{" "}
                <time dateTime={e.at}>{formatWhen(e.at)}</time>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
