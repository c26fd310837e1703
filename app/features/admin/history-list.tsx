import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { LISTING_FIELD_LABELS } from "~/domain/listing-fields";
import type { ListingKind } from "~/domain/listing-kinds";
import { successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { formatWhen } from "~/shared/format-when";
import { useHydrated } from "~/shared/use-hydrated";
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
    | { photos: "added" | "removed" | "erased"; count: number }
    | { photos: "reordered" }
    | { caption: number; before: string; after: string }
  )[];
}

export const ACTION_LABELS: Record<string, string> = {
  recorded: "State before the first recorded change",
  added: "Added",
  imported: "Added by a CSV import",
  saved: "Saved",
  availability: "Availability changed",
  "photos-added": "Photos added",
  "photo-removed": "Photo removed",
  "photo-erased": "Photo erased for good",
  restored: "An earlier version restored",
  deleted: "Deleted",
  undeleted: "Restored from Recently deleted",
};

const FIELD_LABELS: Record<string, string> = LISTING_FIELD_LABELS;

function shown(field: string, value: unknown): string {
  if (field === "currently_available") {
    return value === true ? "Available" : value === false ? "Not Available" : "(none)";
  }
  if (value === null || value === undefined || value === "") return "(empty)";
  return String(value);
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
    if (c.photos === "erased")
      return `${c.count} ${c.count === 1 ? "photo" : "photos"} erased for good`;
    return `${c.count} ${c.count === 1 ? "photo" : "photos"} ${c.photos}`;
  });
}

/** A photo only the history names (kept in the private trash until erased or purged). */
export interface HistoryPhoto {
  url: string;
  caption: string;
}

/** /properties/{id}/history and /new-construction/{id}/history, newest first. */
export function HistoryList({
  kind,
  id,
  address,
  entries,
  photos = [],
  may,
}: {
  kind: ListingKind;
  id: string;
  address: string;
  entries: HistoryItem[];
  photos?: HistoryPhoto[];
  /** 'Restore this version' (Owner, Manager) and 'Erase for good' (Owner). */
  may: { restore: boolean; erase: boolean };
}) {
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const hydrated = useHydrated();
  const [busy, setBusy] = useState<number | string | null>(null);
  const [status, setStatus] = useState("");

  // 'Erase for good' (docs/behaviour.md §21): the photo, every variant and copy, and every
  // mention of it in the history go; a new entry says so.
  async function erase(photo: HistoryPhoto) {
    if (!(await dialogs.confirm())) return;
    setBusy(photo.url);
    setStatus("");
    try {
      await apiRequest("DELETE", apiUrl(kind.collection, id, "/history/photos"), {
        url: photo.url,
      });
      await revalidate();
      setStatus("The photo is erased for good.");
      await dialogs.success(successTitles.deleted);
    } catch (error) {
      await dialogs.failed(error);
    } finally {
      setBusy(null);
    }
  }

  async function restore(item: HistoryItem) {
    if (!(await dialogs.confirm())) return;
    setBusy(item.seq);
    setStatus("");
    try {
      await apiRequest("POST", apiUrl(kind.collection, id, `/history/${item.seq}/restore`), {});
      await revalidate();
      setStatus(`The version of ${formatWhen(item.at)} is restored.`);
    } catch (error) {
      await dialogs.failed(error);
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
            {may.restore ? (
              <button
                type="button"
                className="btn btn-outline btn-sm"
                disabled={busy !== null}
                onClick={() => restore(item)}
              >
                {busy === item.seq ? <span className="spinner" aria-hidden="true" /> : null}
                Restore this version
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {photos.length > 0 ? (
        <section aria-labelledby="history-photos">
          <h2 id="history-photos">Photos only the history keeps</h2>
          <p>
            These photos are no longer on the listing and are not public. 'Restore this version'
            brings them back with their version; 'Erase for good' deletes one with every copy.
          </p>
          <ul className="history-photos">
            {photos.map((photo, i) => {
              const name = photo.caption || `Photo ${i + 1} of the history`;
              return (
                <li key={photo.url} data-testid="history-photo">
                  <img
                    src={apiUrl(
                      kind.collection,
                      id,
                      `/history/photo?url=${encodeURIComponent(photo.url)}`,
                    )}
                    alt={name}
                    width={160}
                    height={120}
                    loading="lazy"
                  />
                  {photo.caption ? <p>{photo.caption}</p> : null}
                  {may.erase ? (
                    <button
                      type="button"
                      className="btn btn-danger btn-sm"
                      disabled={!hydrated || busy !== null}
                      aria-label={`Erase for good: ${name}`}
                      onClick={() => erase(photo)}
                    >
                      {busy === photo.url ? <span className="spinner" aria-hidden="true" /> : null}
                      Erase for good
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {dialogs.element}
    </>
  );
}
