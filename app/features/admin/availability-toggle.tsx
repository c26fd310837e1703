import { useId, useState } from "react";
import { dialogDurations, messages, successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { useHydrated } from "~/shared/use-hydrated";
import { apiRequest, apiUrl } from "./api-client";

interface AvailabilityToggleProps {
  propertyId: string;
  available: boolean;
  /** The view shows availability from here while a change is on its way. */
  onAvailability: (available: boolean) => void;
  /** Said by the button's description, e.g. which listing (the table has one button a row). */
  describedAs?: string;
}

/**
 * The spec's 'Toggle Availability': applied at once in the view, saved, reverted in the view if
 * saving fails, with its success and error dialogs. On the detail page and the staff table.
 */
export function AvailabilityToggle({
  propertyId,
  available,
  onAvailability,
  describedAs,
}: AvailabilityToggleProps) {
  const dialogs = useDialogs();
  const [busy, setBusy] = useState(false);
  // A click before this lazily loaded code hydrates would be lost (docs/decisions/0044-admin-buttons-wait-for-hydration.md).
  const hydrated = useHydrated();
  const stateId = useId();

  async function toggle() {
    const next = !available;
    onAvailability(next); // applied at once in the view
    setBusy(true);
    try {
      await apiRequest("PATCH", apiUrl("properties", propertyId, "/availability"), {
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
        {describedAs ? `${describedAs}: ` : ""}
        {available ? "Currently available" : "Currently not available"}
      </span>
      {dialogs.element}
    </>
  );
}
