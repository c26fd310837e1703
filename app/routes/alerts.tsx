// /alerts: where 'Notify me when it's available' and 'E-mail me new matches' post
// (docs/behaviour.md §31). With JavaScript the form reads the answer in place; without it,
// this page shows it: the request to check one's e-mail, or the error with the address as typed.
import { Link } from "react-router";
import { ALERT_LABELS } from "~/domain/listing-alerts";
import { AlertForm } from "~/features/alerts";
import { submitAlert } from "~/features/alerts/index.server";
import { pageMeta } from "~/features/layout";
import { refused } from "~/shared/action-result.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/alerts";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("E-mail alerts", "E-mail alerts about listings.", matches),
  { name: "robots", content: "noindex" },
];

export function loader() {
  return { renderedAt: Date.now() };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (!isForm(form)) {
    return refused(context, form.status, form.message, { email: "", target: null });
  }
  const result = await submitAlert(context, form);
  const listing = typeof form.get("listing") === "string" ? String(form.get("listing")) : "";
  const [collection = "", id = ""] = listing.split("/");
  const target = listing
    ? { listing: { collection, id } }
    : {
        collection: String(form.get("collection") ?? ""),
        search: String(form.get("search") ?? ""),
      };
  if (result.ok) return { ok: true as const, target };
  const { status, ok: _, errors, ...more } = result;
  return refused(context, status, errors, { ...more, target });
}

export default function Alerts({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="alerts-page">
      <h1>E-mail alerts</h1>
      {actionData?.target ? (
        <AlertForm
          target={actionData.target}
          renderedAt={loaderData.renderedAt}
          answer={actionData}
        />
      ) : (
        <p>
          {actionData && !actionData.ok ? actionData.errors.form : ALERT_LABELS.listingIntro}{" "}
          <Link to="/properties">Properties</Link>
        </p>
      )}
    </section>
  );
}
