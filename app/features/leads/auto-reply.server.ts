// The 'Automatic reply' to a question about a listing (docs/behaviour.md §33): the site's text
// with the stored listing's facts and the office's contact filled in. Nothing the sender typed
// goes into it (their address is not confirmed; docs/behaviour.md §27).
import { DEFAULT_AUTO_REPLY, renderAutoReply } from "~/domain/auto-reply";
import type { SiteContent } from "~/domain/company";
import type { Listing } from "~/domain/listing";
import { longDate } from "~/domain/listing-facts";
import { formatPrice } from "~/domain/listing-format";

const NONE = "—";

export function autoReplyFor(
  site: Pick<SiteContent, "name" | "office" | "application" | "autoReply">,
  listing: Pick<
    Listing,
    "address" | "price" | "bedrooms" | "bathrooms" | "available_from" | "currently_available"
  >,
  scheduleUrl: string | null | undefined,
): { subject: string; body: string } {
  const availableFrom = listing.available_from
    ? longDate(listing.available_from)
    : listing.currently_available
      ? "now"
      : NONE;
  const body = renderAutoReply(site.autoReply.text || DEFAULT_AUTO_REPLY, {
    address: listing.address,
    rent: formatPrice(listing.price) || NONE,
    bedrooms: listing.bedrooms === null ? NONE : String(listing.bedrooms),
    bathrooms: listing.bathrooms === null ? NONE : String(listing.bathrooms),
    available_from: availableFrom,
    schedule_link: scheduleUrl ? `Schedule a showing: ${scheduleUrl}` : "",
    screening_criteria: site.application.screeningCriteria || NONE,
    office_phone: site.office.phone,
    office_email: site.office.email,
    company_name: site.name,
  });
  return { subject: `Your question about ${listing.address}`, body };
}
