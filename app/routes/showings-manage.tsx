// /showings/manage?token=…: 'Your showing', opened from the private 'Change or cancel' link of
// its e-mail (docs/behaviour.md §33): the listing, day and time, 'Choose another time' and
// 'Cancel showing', which asks 'Are you sure?' on the page itself (no script needed), and
// 'Confirm I'm coming' while the showing is not confirmed. A reminder's 'Cancel' link opens the
// page at 'Are you sure?' (`intent=cancel`): following a link never changes a showing, since
// mail scanners follow links too. The token is hashed in the database; the page is never
// cached and sends no referrer.
import { data, Form, Link, useLocation } from "react-router";
import { SHOWING_LABELS } from "~/domain/showing-booking";
import { shortDayLabel, timeLabel } from "~/domain/showing-slots";
import { pageMeta } from "~/features/layout";
import {
  cancelShowing,
  confirmShowing,
  managedShowing,
  moveShowingTo,
} from "~/features/showings/index.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/showings-manage";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(SHOWING_LABELS.yours, "Change or cancel your showing.", matches),
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

export async function loader({ context, request }: Route.LoaderArgs) {
  const showing = await managedShowing(context, tokenOf(request));
  if (!showing) throw data(null, { status: 404 });
  return { showing, askCancel: new URL(request.url).searchParams.get("intent") === "cancel" };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (!isForm(form)) return data({ error: form.message }, { status: form.status });
  const intent = form.get("intent");
  // A link that opens no showing asks nothing (the fuzz suite found it answering 200).
  if (intent === "ask") {
    if (!(await managedShowing(context, tokenOf(request)))) {
      return data({ error: SHOWING_LABELS.gone }, { status: 404 });
    }
    return { sure: true as const };
  }
  const start = form.get("start");
  const moveTo =
    intent === "move" && typeof start === "string" && !Number.isNaN(Date.parse(start))
      ? new Date(start)
      : null;
  if (intent === "move" && !moveTo) return data({ error: "Choose a time." }, { status: 400 });
  if (intent !== "cancel" && intent !== "move" && intent !== "confirm") {
    return data({ error: "The form could not be read." }, { status: 400 });
  }
  const token = tokenOf(request);
  const answer = moveTo
    ? await moveShowingTo(context, token, moveTo)
    : intent === "confirm"
      ? await confirmShowing(context, token)
      : await cancelShowing(context, token);
  if (!answer.ok) return data({ error: answer.error }, { status: answer.status });
  return { done: answer.message };
}

export default function ShowingsManage({ loaderData, actionData }: Route.ComponentProps) {
  const { showing, askCancel } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : null;
  const error = actionData && "error" in actionData ? actionData.error : null;
  const sure = (actionData && "sure" in actionData) || (askCancel && !actionData);
  const location = useLocation();
  // 'No' goes back to the page without the reminder's `intent=cancel`.
  const back = {
    pathname: location.pathname,
    search: `?token=${new URLSearchParams(location.search).get("token") ?? ""}`,
  };
  return (
    <section className="inquiry-page">
      <h1>{SHOWING_LABELS.yours}</h1>
      <p>
        <Link to={showing.href}>{showing.address}</Link>
        <br />
        {showing.day} at {showing.time}
      </p>
      {done ? (
        <p role="status" className="inquiry-sent">
          {done}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="alert-error">
          {error}
        </p>
      ) : null}
      {!showing.open ? (
        done ? null : (
          <p>
            {showing.status === "cancelled" ? SHOWING_LABELS.cancelled : "This showing is past."}
          </p>
        )
      ) : sure ? (
        <Form method="post">
          <p>{SHOWING_LABELS.sure}</p>
          <button type="submit" name="intent" value="cancel" className="btn btn-danger">
            Yes
          </button>{" "}
          <Link to={back} className="btn btn-outline" reloadDocument>
            No
          </Link>
        </Form>
      ) : (
        <>
          {showing.status === "confirmed" ? (
            <p>You have confirmed that you're coming.</p>
          ) : (
            <Form method="post">
              <button type="submit" name="intent" value="confirm" className="btn btn-primary">
                {SHOWING_LABELS.confirm}
              </button>
            </Form>
          )}
          {showing.times.length > 0 ? (
            <Form method="post" className="showing-move">
              <h2 className="h4">{SHOWING_LABELS.another}</h2>
              <select name="start" className="form-select" aria-label={SHOWING_LABELS.another}>
                {showing.times.map((t) => (
                  <option key={t.start} value={t.start}>
                    {shortDayLabel(t.date)}, {timeLabel(t.time)}
                  </option>
                ))}
              </select>
              <button type="submit" name="intent" value="move" className="btn btn-primary">
                {SHOWING_LABELS.another}
              </button>
            </Form>
          ) : null}
          <Form method="post">
            <button type="submit" name="intent" value="ask" className="btn btn-outline">
              {SHOWING_LABELS.cancel}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
