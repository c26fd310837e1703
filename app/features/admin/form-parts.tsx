// Pieces both admin forms show while work runs (docs/behaviour.md §4: spinner and 'Saving...'/'Deleting...').
import type { ReactNode } from "react";
import { addedMessages } from "~/domain/messages";

/** The upload progress bar; nothing when no upload runs. */
export function UploadProgress({ fraction }: { fraction: number | null }) {
  if (fraction === null) return null;
  const percent = Math.round(fraction * 100);
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label="Upload progress"
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div style={{ width: `${percent}%` }} />
    </div>
  );
}

/** A button's label: a spinner and the busy text while `busy`, otherwise the label. */
export function BusyLabel({
  busy,
  busyText,
  children,
}: {
  busy: boolean;
  busyText: string;
  children: ReactNode;
}) {
  if (!busy) return <>{children}</>;
  return (
    <>
      <span className="spinner" aria-hidden="true" />
      {busyText}
    </>
  );
}

/**
 * Under a photo picker: how many photos there are (the file input itself says 'No file chosen'
 * once its files are taken over) and that they can be dragged to reorder.
 */
export function PhotoCount({ id, count, picked }: { id: string; count: number; picked: boolean }) {
  const photos = count === 1 ? "1 photo" : `${count} photos`;
  const what = picked ? `${photos} chosen` : `${photos} on this listing`;
  return (
    <p className="form-hint" id={id} aria-live="polite">
      {count === 0
        ? "No photos chosen yet."
        : `${what}. Drag them (or use Space and the arrow keys) to reorder; the first is the thumbnail.`}
    </p>
  );
}

/** After 'Clear': says so and offers to bring everything back. */
export function UndoClear({ onUndo }: { onUndo: () => void }) {
  return (
    <div className="undo-bar" role="status">
      <p>{addedMessages.formCleared}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}

/** Moves the keyboard to the field the server refused, once its dialog has closed. */
export function focusInvalidField(form: HTMLFormElement | null) {
  form?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
}
