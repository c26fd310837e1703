// /admin/showings, 'Showings' (docs/behaviour.md §33): the booked showings of today and of the
// next 7 days, in the company's time zone, with the renter's details and the buttons
// 'Completed', 'No-show' and 'Cancel'; 'Showing hours' from here. Staff who read the inbox read
// this (it holds renters' details).
import { Form, Link } from "react-router";
import { z } from "zod";
import { AGENDA_ACTIONS, type AgendaAction, SHOWING_LABELS } from "~/domain/showing-booking";
import { actorOf, can, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import {
  calendarFeedOf,
  calendarFeedPath,
  markShowing,
  resetCalendarFeed,
  showingAgenda,
} from "~/features/showings/index.server";
import { parseForm, refused, succeeded } from "~/shared/action-result.server";
import { ActionAnswer } from "~/ui";
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

const AgendaForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("calendar") }),
  z.object({
    intent: z.enum(Object.keys(AGENDA_ACTIONS) as [AgendaAction, ...AgendaAction[]]),
    id: z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  }),
]);

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "leads");
  // The buttons' fields are the page's own: one message for any that is not one of them.
  const parsed = await parseForm(request, AgendaForm, { invalid: "The form could not be read." });
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  const input = parsed.data;
  if (input.intent === "calendar") {
    if (!viewer.user) return refused(context, 400, "The form could not be read.");
    // 'Reset link' (also the first address): shown once, since only its hash is kept.
    const token = await resetCalendarFeed(context.db, viewer.user);
    return succeeded(undefined, {
      feedUrl: `${context.env.publicUrl}${calendarFeedPath(token)}`,
    });
  }
  const status = await markShowing(context, input.id, input.intent, {
    actorId: actorOf(viewer),
    scope: viewer.listings,
  });
  if (!status) return refused(context, 409, SHOWING_LABELS.gone);
  return succeeded(`Status saved: ${status}.`);
}

export default function AdminShowings({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, feed, mayEditHours } = loaderData;
  const feedUrl =
    actionData && "feedUrl" in actionData && typeof actionData.feedUrl === "string"
      ? actionData.feedUrl
      : null;
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
      <ActionAnswer answer={actionData} />
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
