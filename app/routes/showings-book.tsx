// /showings/book: where 'Schedule a showing' posts (docs/behaviour.md §33). With JavaScript the
// form reads the answer in place; without it, this page shows the answer: the booking, or the
// form again with every field as typed, its errors and the times as they are now. Opened with
// `?listing=properties/{id}`, it is that listing's form.
import { Link } from "react-router";
import { listingPath, parseListingRef } from "~/domain/listing-kinds";
import { SHOWING_LABELS } from "~/domain/showing-booking";
import { pageMeta } from "~/features/layout";
import { getListing } from "~/features/listings/index.server";
import { BookingForm } from "~/features/showings";
import { showingsFor, submitBooking } from "~/features/showings/index.server";
import { refused } from "~/shared/action-result.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/showings-book";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(SHOWING_LABELS.heading, "Book a time to see a home.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const ref = parseListingRef(query.get("listing") ?? "");
  const found = ref ? await getListing(context.db, ref.collection, ref.id) : null;
  const offer = ref && found ? await showingsFor(context, { ...ref, ...found }) : null;
  return { renderedAt: Date.now(), offer, chosen: query.get("start") };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (!isForm(form)) {
    const values = { name: "", email: "", phone: "", moveIn: "", people: "", start: "" };
    return refused(context, form.status, form.message, { values, listing: null, slots: [] });
  }
  const answer = await submitBooking(context, form);
  if (answer.ok) return answer;
  const { status, ok: _, errors, ...more } = answer;
  return refused(context, status, errors, more);
}

export default function ShowingsBook({ loaderData, actionData }: Route.ComponentProps) {
  const listing = actionData?.listing ?? loaderData.offer?.listing ?? null;
  const times = loaderData.offer?.times ?? [];
  return (
    <section className="inquiry-page">
      <h1>{listing?.address ?? SHOWING_LABELS.heading}</h1>
      {listing ? (
        <BookingForm
          listing={listing}
          times={times}
          renderedAt={loaderData.renderedAt}
          chosen={loaderData.chosen}
          answer={actionData ?? null}
        />
      ) : (
        <p>{SHOWING_LABELS.noTimes}</p>
      )}
      {listing ? (
        <p>
          <Link to={listingPath(listing.collection, listing.id)}>{listing.address}</Link>
        </p>
      ) : null}
    </section>
  );
}
