// /admin/showings, 'Showings' (docs/behaviour.md §33): the booked showings of today and of the
// next 7 days, in the company's time zone, with the renter's details and the buttons
// 'Completed', 'No-show' and 'Cancel'; 'Showing hours' from here. Staff who read the inbox read
// this (it holds renters' details).
import { data, Form, Link } from "react-router";
import { AGENDA_ACTIONS, isAgendaAction, SHOWING_LABELS } from "~/domain/showing-booking";
import { actorOf, can, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import {
  calendarFeedOf,
  calendarFeedPath,
  markShowing,
  resetCalendarFeed,
  showingAgenda,
} from "~/features/showings/index.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/admin-showings";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Showings", "Admin: booked showings.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "leads");
  const rows = await showingAgenda(context, viewer.listings);
  const feed = viewer.user ? await calendarFeedOf(context.db, viewer.user) : null;
  return { rows, feed, mayEditHours: can(viewer, "listings:write") };
}

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "leads");
  const form = await readForm(request);
  if (!isForm(form)) return data({ error: form.message }, { status: form.status });
  const intent = form.get("intent");
  // 'Reset link' (also the first address): shown once, since only its hash is kept.
  if (intent === "calendar" && viewer.user) {
    const token = await resetCalendarFeed(context.db, viewer.user);
    return { feedUrl: `${context.env.publicUrl}${calendarFeedPath(token)}` };
  }
  const rawId = form.get("id");
  if (!isAgendaAction(intent) || typeof rawId !== "string" || !/^[1-9]\d{0,14}$/.test(rawId)) {
    return data({ error: "The form could not be read." }, { status: 400 });
  }
  const id = Number(rawId);
  const status = await markShowing(context, id, intent, {
    actorId: actorOf(viewer),
    scope: viewer.listings,
  });
  if (!status) {
    return data({ error: SHOWING_LABELS.gone }, { status: 409 });
  }
  return { ok: `Status saved: ${status}.` };
}

export default function AdminShowings({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, feed, mayEditHours } = loaderData;
  const feedUrl = actionData && "feedUrl" in actionData ? actionData.feedUrl : null;
  const table = (title: string, shown: typeof rows) => (
    <>
      <h2 className="h4">{title}</h2>
      {shown.length === 0 ? (
        <p>No showings.</p>
      ) : (
        <table className="table showings-agenda">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Listing</th>
              <th scope="col">Renter</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.id}>
                <td>{r.when}</td>
                <td>
                  <Link to={r.href}>{r.address}</Link>
                </td>
                <td>
                  {r.name}
                  <div>
                    <a href={`mailto:${r.email}`}>{r.email}</a>
                    {r.phone ? ` · ${r.phone}` : ""}
                  </div>
                  {r.answers.map((a) => (
                    <div key={a} className="text-muted">
                      {a}
                    </div>
                  ))}
                </td>
                <td>
                  {r.status}
                  {r.actions.length > 0 ? (
                    <Form method="post" className="showing-actions">
                      <input type="hidden" name="id" value={r.id} />
                      {r.actions.map((value) => (
                        <button
                          key={value}
                          type="submit"
                          name="intent"
                          value={value}
                          className={`btn btn-sm ${value === "cancelled" ? "btn-outline-danger" : "btn-outline"}`}
                        >
                          {AGENDA_ACTIONS[value]}
                        </button>
                      ))}
                    </Form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
  return (
    <section className="prose">
      <h1>Showings</h1>
      {mayEditHours ? (
        <p>
          <Link to="/admin/showings/hours">Showing hours</Link>
        </p>
      ) : null}
      {actionData && "ok" in actionData ? (
        <p role="status">{actionData.ok}</p>
      ) : actionData && "error" in actionData ? (
        <p role="alert" className="alert-error">
          {actionData.error}
        </p>
      ) : null}
      {table(
        "Today",
        rows.filter((r) => r.today),
      )}
      {table(
        "Next 7 days",
        rows.filter((r) => !r.today),
      )}
      <h2 className="h4">Calendar feed</h2>
      <p>
        A private address to subscribe to in Google Calendar or Outlook: every booked showing you
        see here, with the renter's name but not their e-mail or phone.
      </p>
      {feedUrl ? (
        <p role="status">
          <label htmlFor="calendar-feed-url">Copy this address now: it is shown only once.</label>
          <input
            id="calendar-feed-url"
            className="form-control"
            readOnly
            value={feedUrl}
            onFocus={(e) => e.currentTarget.select()}
          />
        </p>
      ) : feed ? (
        <p>
          Your address was made {feed.createdAt.slice(0, 10)}
          {feed.lastFetchedAt
            ? `; last read by a calendar ${feed.lastFetchedAt.slice(0, 16).replace("T", " ")} UTC`
            : "; no calendar has read it yet"}
          . 'Reset link' makes a new one and stops the old.
        </p>
      ) : null}
      <Form method="post">
        <button type="submit" name="intent" value="calendar" className="btn btn-outline">
          {feed || feedUrl ? "Reset link" : "Get link"}
        </button>
      </Form>
    </section>
  );
}
