import { useId, useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { Listing } from "~/domain/listing";
import type { ListingKind } from "~/domain/listing-kinds";
import { addedMessages, dialogDurations, messages, successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { useHydrated } from "~/shared/use-hydrated";
import { apiRequest, apiUrl } from "./api-client";

interface AdminFeaturesProps {
  kind: ListingKind;
  listing: Listing;
  /** The detail page shows availability from here while a change is on its way. */
  onAvailability: (available: boolean) => void;
  available: boolean;
  /** On the home page's 'Featured Properties' (docs/behaviour.md §19). */
  featured: boolean;
}

/** The detail page's 'Admin Features' block; loaded only for admins. */
export default function AdminFeatures({
  kind,
  listing,
  onAvailability,
  available,
  featured,
}: AdminFeaturesProps) {
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState(false);
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
  const stateId = useId();

  async function toggle() {
    const next = !available;
    onAvailability(next); // applied at once in the view
    setBusy(true);
    try {
      await apiRequest("PATCH", apiUrl("properties", listing.id, "/availability"), {
        currently_available: next,
      });
      setBusy(false);
      await dialogs.success(successTitles.updated, dialogDurations.availabilitySuccess);
    } catch (error) {
      onAvailability(!next); // reverted when saving fails
      setBusy(false);
      await dialogs.failed(error, messages.availabilityFailed, messages.availabilityFailedTitle);
    }
  }

  return (
    <section className="admin-block" aria-labelledby="admin-features">
      <h2 id="admin-features">Admin Features</h2>
      <div className="form-actions">
        {kind.hasOffer ? (
          <>
            {/* The button's text stays the spec's; its description says the current state. */}
            <button
              type="button"
              className="btn btn-secondary"
              onClick={toggle}
              disabled={busy || !hydrated}
              aria-describedby={stateId}
            >
              {busy ? <span className="spinner" aria-hidden="true" /> : null}
              Toggle Availability
            </button>
            <span id={stateId} className="visually-hidden">
              {available ? "Currently available" : "Currently not available"}
            </span>
          </>
        ) : null}
        <Link
          className="btn btn-secondary"
          to={`${kind.editRoute}/${encodeURIComponent(listing.id)}`}
        >
          Edit Property
        </Link>
        <Link
          className="btn btn-outline"
          to={`${kind.route}/${encodeURIComponent(listing.id)}/history`}
        >
          History
        </Link>
        <button
          type="button"
          className="btn btn-outline"
          onClick={toggleFeatured}
          disabled={featuring || !hydrated}
        >
          {featuring ? <span className="spinner" aria-hidden="true" /> : null}
          {isFeatured ? "Remove from home page" : "Feature on home page"}
        </button>
      </div>
      {dialogs.element}
    </section>
  );
}
