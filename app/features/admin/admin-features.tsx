import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { Listing } from "~/domain/listing";
import type { ListingKind } from "~/domain/listing-kinds";
import { addedMessages, messages } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { useHydrated } from "~/shared/use-hydrated";
import { apiRequest, apiUrl } from "./api-client";
import { AvailabilityToggle } from "./availability-toggle";

interface AdminFeaturesProps {
  kind: ListingKind;
  listing: Listing;
  /** The detail page shows availability from here while a change is on its way. */
  onAvailability: (available: boolean) => void;
  available: boolean;
  /** On the home page's 'Featured Properties' (docs/behaviour.md §19). */
  featured: boolean;
  /** The spec's admin: 'Edit Property' and featuring; a leasing agent has neither. */
  mayEdit: boolean;
}

/** The detail page's 'Admin Features' block; loaded only for staff who may change availability. */
export default function AdminFeatures({
  kind,
  listing,
  onAvailability,
  available,
  featured,
  mayEdit,
}: AdminFeaturesProps) {
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const [featuring, setFeaturing] = useState(false);
  const [featuredOverride, setFeaturedOverride] = useState<boolean | null>(null);
  const isFeatured = featuredOverride ?? featured;
  // A click before this lazily loaded block hydrates would be lost (docs/decisions/0044-admin-buttons-wait-for-hydration.md).
  const hydrated = useHydrated();

  async function toggleFeatured() {
    setFeaturing(true);
    try {
      await apiRequest("PUT", apiUrl(kind.collection, listing.id, "/featured"), {
        featured: !isFeatured,
      });
      setFeaturedOverride(!isFeatured);
      await revalidate();
      setFeaturedOverride(null);
    } catch (error) {
      await dialogs.failed(error, addedMessages.featuredFailed, messages.availabilityFailedTitle);
    } finally {
      setFeaturing(false);
    }
  }
  return (
    <section className="admin-block" aria-labelledby="admin-features">
      <h2 id="admin-features">Admin Features</h2>
      <div className="form-actions">
        {kind.hasOffer ? (
          <AvailabilityToggle
            propertyId={listing.id}
            available={available}
            onAvailability={onAvailability}
          />
        ) : null}
        {mayEdit ? (
          <Link
            className="btn btn-secondary"
            to={`${kind.editRoute}/${encodeURIComponent(listing.id)}`}
          >
            Edit Property
          </Link>
        ) : null}
        <Link
          className="btn btn-outline"
          to={`${kind.route}/${encodeURIComponent(listing.id)}/history`}
        >
          History
        </Link>
        {mayEdit ? (
          <button
            type="button"
            className="btn btn-outline"
            onClick={toggleFeatured}
            disabled={featuring || !hydrated}
          >
            {featuring ? <span className="spinner" aria-hidden="true" /> : null}
            {isFeatured ? "Remove from home page" : "Feature on home page"}
          </button>
        ) : null}
      </div>
      {dialogs.element}
    </section>
  );
}
