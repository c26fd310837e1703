import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import { useDialogs } from "~/features/dialogs";
import { useHydrated } from "~/shared/use-hydrated";
import { apiRequest, apiUrl } from "./api-client";

/**
 * 'Still available' in the staff table (docs/behaviour.md §30): confirms that an available
 * property is still available, which clears its 'Stale' mark and moves 'Availability checked'
 * on its page to today. Not a change of the listing.
 */
export function StillAvailableButton({
  propertyId,
  describedAs,
}: {
  propertyId: string;
  describedAs: string;
}) {
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState(false);
  // A click before hydration would be lost (docs/decisions/0044-admin-buttons-wait-for-hydration.md).
  const hydrated = useHydrated();
  const labelId = useId();

  async function confirm() {
    setBusy(true);
    try {
      await apiRequest("POST", apiUrl("properties", propertyId, "/still-available"));
      await revalidate();
      setBusy(false);
    } catch (error) {
      setBusy(false);
      await dialogs.failed(error, (message) => `The availability was not confirmed: ${message}`);
    }
  }

  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={confirm}
        disabled={busy || !hydrated}
        aria-describedby={labelId}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        Still available
      </button>
      <span id={labelId} className="visually-hidden">
        {describedAs}
      </span>
      {dialogs.element}
    </>
  );
}
