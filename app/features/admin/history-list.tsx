import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import type { ListingKind } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { apiRequest, apiUrl } from "./api-client";

/** One history entry as the page shows it (docs/behaviour.md §21). */
export interface HistoryItem {
  seq: number;
  at: string;
  by_name: string | null;
  by_email: string | null;
  action: string;
  changes: (
    | { field: string; before: unknown; after: unknown }
    | { photos: "added" | "removed"; count: number }
    | { photos: "reordered" }
    | { caption: number; before: string; after: string }
  )[];
}

export const ACTION_LABELS: Record<string, string> = {
  recorded: "State before the first recorded change",
  added: "Added",
  saved: "Saved",
  availability: "Availability changed",
  "photos-added": "Photos added",
  "photo-removed": "Photo removed",
  restored: "An earlier version restored",
  deleted: "Deleted",
  undeleted: "Restored from Recently deleted",
};

const FIELD_LABELS: Record<string, string> = {
  address: "Address",
  bedrooms: "Bedrooms",
  bathrooms: "Bathrooms",
  description: "Description",
  thumbnail_description: "Thumbnail Description",
  property_type: "Property Type",
  currently_available: "Availability",
  price: "Price",
  reserve_url: "Reservation URL",
};

function shown(field: string, value: unknown): string {
  if (field === "currently_available") {
    return value === true ? "Available" : value === false ? "Not Available" : "(none)";
  }
  if (value === null || value === undefined || value === "") return "(empty)";
  return String(value);
}

/** "Nov 23, 2026, 11:40 PM UTC": the same text on the server and in any browser. */
export function formatWhen(iso: string) {
  return `${new Date(iso).toLocaleString("en-US", {
    timeZone: "UTC",
    dateStyle: "medium",
    timeStyle: "short",
  })} UTC`;
}

export function changeLines(item: HistoryItem): string[] {
  return item.changes.map((c) => {
    if ("field" in c) {
      return `${FIELD_LABELS[c.field] ?? c.field}: ${shown(c.field, c.before)} → ${shown(c.field, c.after)}`;
    }
    if ("caption" in c) {
      return `Caption of photo ${c.caption}: ${shown("", c.before)} → ${shown("", c.after)}`;
    }
    if (c.photos === "reordered") return "Photos reordered";
    return `${c.count} ${c.count === 1 ? "photo" : "photos"} ${c.photos}`;
  });
}

/** /properties/{id}/history and /new-construction/{id}/history, newest first. */
export function HistoryList({
  kind,
  id,
  address,
  entries,
}: {
  kind: ListingKind;
  id: string;
  address: string;
  entries: HistoryItem[];
}) {
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState<number | null>(null);
  const [status, setStatus] = useState("");

  async function restore(item: HistoryItem) {
    if (!(await dialogs.confirm())) return;
    setBusy(item.seq);
    setStatus("");
    try {
      await apiRequest("POST", apiUrl(kind.collection, id, `/history/${item.seq}/restore`), {});
      await revalidate();
      setStatus(`The version of ${formatWhen(item.at)} is restored.`);
    } catch (error) {
      await dialogs.error((error as Error).message, messages.errorTitle);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <p>
        <Link to={`${kind.route}/${encodeURIComponent(id)}`}>Back to {address}</Link>
      </p>
      <p role="status">{status}</p>
      {entries.length === 0 ? <p>No changes have been recorded yet.</p> : null}
      <ol className="history-list">
        {entries.map((item) => (
          <li key={item.seq} data-testid="history-entry">
            <h2>{`${ACTION_LABELS[item.action] ?? item.action}, ${formatWhen(item.at)}`}</h2>
            <p>
              {item.by_name || item.by_email
                ? `By ${[item.by_name, item.by_email && `(${item.by_email})`].filter(Boolean).join(" ")}`
                : "By an unknown person (before history was recorded)"}
            </p>
            {item.changes.length > 0 ? (
              <ul>
                {changeLines(item).map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat and never reorder
                  <li key={i}>{line}</li>
                ))}
              </ul>
            ) : null}
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={busy !== null}
              onClick={() => restore(item)}
            >
              {busy === item.seq ? <span className="spinner" aria-hidden="true" /> : null}
              Restore this version
            </button>
          </li>
        ))}
      </ol>
      {dialogs.element}
    </>
  );
}
