import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Listing } from "~/domain/listing";
import { factLines, longDate } from "~/domain/listing-facts";
import {
  bedBathLine,
  CONTACT_TO_RESERVE,
  descriptionBullets,
  formatPrice,
} from "~/domain/listing-format";
import type { ListingKind } from "~/domain/listing-kinds";
import { useCompany } from "~/features/site-settings";
import type { DetailData } from "./detail-loader.server";
import { Gallery } from "./gallery";

const MissingListingDialog = lazy(() => import("./missing-listing-dialog"));

/** What the detail page gives the admin block the route puts at its foot. */
export interface AdminBlockProps {
  kind: ListingKind;
  listing: Listing;
  /** The page shows availability from here while a change is on its way. */
  onAvailability: (available: boolean) => void;
  available: boolean;
  /** On the home page's 'Featured Properties' (docs/behaviour.md §19). */
  featured: boolean;
  /** 'Edit Property' and featuring, for the spec's admin; else only what the role allows. */
  mayEdit: boolean;
}

/**
 * 'Notify me' and 'E-mail me new matches' (the alerts feature's form, docs/behaviour.md §31):
 * the routes compose it, so listings does not depend on alerts.
 */
export type AlertSlot = ComponentType<{
  target: { listing: { collection: string; id: string } } | { collection: string; search: string };
  renderedAt: number;
}>;

interface ListingDetailPageProps {
  kind: ListingKind;
  data: DetailData;
  /**
   * The 'Admin Features' block, rendered for admins only. The route composes it (the admin
   * feature's lazily loaded component), so this public page does not depend on the admin feature
   * and signed-out visitors never download its code.
   */
  AdminBlock?: ComponentType<AdminBlockProps>;
  /**
   * 'Ask about this listing' (the leads feature's form), in the contact panel: the route composes
   * it, as it does the admin block, so listings does not depend on leads.
   */
  inquiry?: ReactNode;
  /** 'Notify me' on a property that is not available. */
  AlertForm?: AlertSlot;
}

/** /properties/{id} and /new-construction/{id}: constructions simply have no offer block. */
export function ListingDetailPage({
  kind,
  data,
  AdminBlock,
  inquiry,
  AlertForm,
}: ListingDetailPageProps) {
  const navigate = useNavigate();
  const company = useCompany();
  const { listing } = data;
  // An admin's availability toggle shows at once; fresh loader data replaces it.
  const [availableOverride, setAvailableOverride] = useState<boolean | null>(null);
  const stored = listing?.currently_available;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the stored value changes
  useEffect(() => setAvailableOverride(null), [stored, listing?.id]);
  if (!listing) {
    return (
      <Suspense fallback={null}>
        <MissingListingDialog problem={data.problem} onClose={() => navigate("/properties")} />
      </Suspense>
    );
  }
  const facts = bedBathLine(listing.bedrooms, listing.bathrooms);
  const bullets = descriptionBullets(listing.description);
  const details = factLines(kind.collection, listing);
  const available = availableOverride ?? listing.currently_available === true;
  const manager = company.contacts.find((c) => c.role === "Property Manager");
  return (
    <article className="detail">
      <Gallery
        urls={listing.image_urls}
        address={listing.address}
        captions={listing.image_captions}
      />
      <h1>{listing.address}</h1>
      {facts ? <p className="detail-facts">{facts}</p> : null}
      {/* Right after the bedroom line on a phone; the right-hand column that stays in view on a
          wide screen (docs/decisions/0047-listing-presentation-and-detail-layout.md). */}
      <div className="offer-panel" data-testid="offer-panel">
        {kind.hasOffer ? (
          <>
            {available && listing.price ? (
              <p className="detail-price">{formatPrice(listing.price)}</p>
            ) : null}
            <p>
              <span className={available ? "status status-on" : "status status-off"}>
                {available ? "Available" : "Not Available"}
              </span>
            </p>
            {/* A renter can ask to hear when it is available (docs/behaviour.md §31). */}
            {AlertForm && !available && listing.currently_available === false && data.renderedAt ? (
              <AlertForm
                target={{ listing: { collection: kind.collection, id: listing.id } }}
                renderedAt={data.renderedAt}
              />
            ) : null}
            {available ? (
              <div className="detail-actions">
                {listing.property_type === "Vacation" ? (
                  listing.reserve_url ? (
                    <a
                      className="btn btn-primary btn-lg"
                      href={listing.reserve_url}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      Reserve
                    </a>
                  ) : (
                    // Never nothing: guests can still ask (docs/behaviour.md §2, property detail).
                    <Link className="btn btn-primary btn-lg" to="/contact">
                      {CONTACT_TO_RESERVE}
                    </Link>
                  )
                ) : (
                  <Link
                    className="btn btn-primary btn-lg"
                    to={`/rental-application?address=${encodeURIComponent(listing.address)}`}
                  >
                    Apply Now
                  </Link>
                )}
              </div>
            ) : null}
            {/* When staff last confirmed the status (docs/behaviour.md §30), below the actions so that
                'Apply Now' stays where it was. */}
            {available && listing.availability_checked_on ? (
              <p className="detail-checked">
                Availability checked {longDate(listing.availability_checked_on)}
              </p>
            ) : null}
            <DetailContact
              title="Questions? Ask our property manager"
              person={manager?.name}
              phone={manager?.phone ?? company.office.phone}
              email={manager?.email ?? company.office.email}
              subject={listing.address}
            />
          </>
        ) : (
          <DetailContact
            title="Ask about this property"
            intro="E-mail or call us and we will gladly tell you more."
            phone={company.office.phone}
            email={company.office.email}
            subject={listing.address}
          />
        )}
        {data.panelHtml ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made on the server by a feature (detail-loader.server.ts), escaped there
          <div dangerouslySetInnerHTML={{ __html: data.panelHtml }} />
        ) : null}
        {inquiry}
      </div>
      {bullets.length > 0 ? (
        <ul>
          {bullets.map((bullet, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: bullets may repeat and never reorder
            <li key={i}>{bullet}</li>
          ))}
        </ul>
      ) : null}
      {details.length > 0 ? (
        <section className="detail-details" aria-labelledby="details-heading">
          <h2 id="details-heading">Details</h2>
          <dl>
            {details.map((line) => (
              <div key={line.label}>
                <dt>{line.label}</dt>
                <dd>{line.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      {data.staff && AdminBlock ? (
        <Suspense fallback={null}>
          <AdminBlock
            kind={kind}
            listing={listing}
            available={available}
            onAvailability={setAvailableOverride}
            featured={data.featured === true}
            mayEdit={data.staff.edit}
          />
        </Suspense>
      ) : null}
    </article>
  );
}

/** How to reach someone about this listing: phone and e-mail as links. */
function DetailContact({
  title,
  intro,
  person,
  phone,
  email,
  subject,
}: {
  title: string;
  intro?: string;
  person?: string;
  phone: string;
  email: string;
  subject: string;
}) {
  return (
    <>
      <h2>{title}</h2>
      {intro ? <p>{intro}</p> : null}
      <ul className="contact-lines">
        {person ? <li>{person}</li> : null}
        <li>
          Phone: <a href={`tel:${phone}`}>{phone}</a>
        </li>
        <li>
          E-mail:{" "}
          <a href={`mailto:${email}?subject=${encodeURIComponent(subject.trim())}`}>{email}</a>
        </li>
      </ul>
    </>
  );
}
