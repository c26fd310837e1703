// /inquiries: where 'Ask about this listing' and 'Send us a message' post (docs/behaviour.md
// §27). With JavaScript the form reads the answer in place; without it, this page shows the
// answer: the thanks, or the form again with every field as typed and its errors. Opened
// directly, it is the general 'Send us a message' form.
import { INQUIRY_LABELS } from "~/domain/inquiry";
import { pageMeta } from "~/features/layout";
import { InquiryForm } from "~/features/leads";
import { submitInquiry } from "~/features/leads/index.server";
import { scheduleUrlFor } from "~/features/showings/index.server";
import { refused } from "~/shared/action-result.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/inquiries";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(INQUIRY_LABELS.contactHeading, "Send us a message.", matches),
  { name: "robots", content: "noindex" },
];

export function loader() {
  return { renderedAt: Date.now() };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (!isForm(form)) {
    const values = { name: "", email: "", phone: "", message: "", showing: false, times: [] };
    return refused(context, form.status, form.message, { values, listing: null });
  }
  // The automatic reply links to 'Schedule a showing' when the listing offers times.
  const result = await submitInquiry(context, form, Date.now(), {
    scheduleUrl: (listing) => scheduleUrlFor(context, listing),
  });
  if (result.ok) return { ok: true as const, listing: result.listing };
  const { status, ok: _, errors, ...more } = result;
  return refused(context, status, errors, more);
}

export default function Inquiries({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="inquiry-page">
      <h1>{actionData?.listing?.address ?? "Contact Us"}</h1>
      <InquiryForm
        listing={actionData?.listing ?? null}
        renderedAt={loaderData.renderedAt}
        answer={actionData ?? null}
      />
    </section>
  );
}
