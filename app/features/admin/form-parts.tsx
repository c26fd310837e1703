// Pieces both admin forms show while work runs (docs/behaviour.md §4: spinner and 'Saving...'/'Deleting...').
import type { ReactNode } from "react";

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
