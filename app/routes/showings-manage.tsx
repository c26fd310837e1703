// /showings/manage?token=…: 'Your showing', opened from the private 'Change or cancel' link of
// its e-mail (docs/behaviour.md §33): the listing, day and time, 'Choose another time' and
// 'Cancel showing', which asks 'Are you sure?' on the page itself (no script needed), and
// 'Confirm I'm coming' while the showing is not confirmed. A reminder's 'Cancel' link opens the
// page at 'Are you sure?' (`intent=cancel`): following a link never changes a showing, since
// mail scanners follow links too. The token is hashed in the database; the page is never
// cached and sends no referrer.
import { data, Form, Link, useLocation } from "react-router";
import { z } from "zod";
import { SHOWING_LABELS } from "~/domain/showing-booking";
import { shortDayLabel, timeLabel } from "~/domain/showing-slots";
import { pageMeta } from "~/features/layout";
import {
  cancelShowing,
  confirmShowing,
  managedShowing,
  moveShowingTo,
} from "~/features/showings/index.server";
import { parseForm, refused, succeeded } from "~/shared/action-result.server";
import { ActionAnswer } from "~/ui";
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

const ManageForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.enum(["ask", "cancel", "confirm"]) }),
    z.object({
      intent: z.literal("move"),
      start: z
        .string("Choose a time.")
        .refine((start) => !Number.isNaN(Date.parse(start)), "Choose a time.")
        .transform((start) => new Date(start)),
    }),
  ],
  { error: "The form could not be read." },
);

export async function action({ context, request }: Route.ActionArgs) {
  const parsed = await parseForm(request, ManageForm);
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  const input = parsed.data;
  const token = tokenOf(request);
  // A link that opens no showing asks nothing (the fuzz suite found it answering 200).
  if (input.intent === "ask") {
    if (!(await managedShowing(context, token))) return refused(context, 404, SHOWING_LABELS.gone);
    return succeeded(undefined, { sure: true as const });
  }
  const answer =
    input.intent === "move"
      ? await moveShowingTo(context, token, input.start)
      : input.intent === "confirm"
        ? await confirmShowing(context, token)
        : await cancelShowing(context, token);
  if (!answer.ok) return refused(context, answer.status, answer.error);
  return succeeded(answer.message);
}

export default function ShowingsManage({ loaderData, actionData }: Route.ComponentProps) {
  const { showing, askCancel } = loaderData;
  const done = actionData?.ok ? actionData.message : null;
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
      {actionData?.ok ? null : <ActionAnswer answer={actionData} />}
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
