// 'Ask about this listing' on the detail pages, its code loaded only when it is used
// (app/shared/on-demand-form.tsx; docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { lazy } from "react";
import { OnDemandForm } from "~/shared/on-demand-form";
import type { InquiryAnswer, InquiryFormProps } from "./inquiry-form";

const load = () => import("./inquiry-form").then((m) => ({ default: m.InquiryForm }));
const Form = lazy(load);

/**
 * 'Ask about this listing' for a detail page's loader data, or nothing when the listing is
 * missing: what the two detail routes give the listing page (docs/behaviour.md §27).
 */
export function listingInquiry(data: {
  listing: { collection: string; id: string; address: string } | null;
  renderedAt?: number;
}) {
  const { listing } = data;
  if (!listing) return null;
  return (
    <OnDemandForm<InquiryFormProps, InquiryAnswer>
      Form={Form}
      load={load}
      props={{
        listing: { collection: listing.collection, id: listing.id, address: listing.address },
        renderedAt: data.renderedAt ?? 0,
      }}
    />
  );
}
