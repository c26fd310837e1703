// /addproperty, /addnewconstruction, /editproperties/{id} and /edit-construction/{id}: one form
// for both kinds and both modes (docs/behaviour.md §4). What differs is how it stores: adding
// sends fields and picked photos at once (use-add-listing.ts); editing uploads and removes
// photos at once and saves the fields with the record's version (use-edit-listing.ts).
import { useId, useRef } from "react";
import type { Listing } from "~/domain/listing";
import type { ListingKind } from "~/domain/listing-kinds";
import { BusyLabel, PhotoCount, UndoClear, UploadProgress } from "./form-parts";
import type { ListingFormValues } from "./form-values";
import { ListingCheckPanel } from "./listing-check-panel";
import { type FieldError, ListingFields } from "./listing-fields";
import { type SortableImage, SortableImages } from "./sortable-images";
import { useAddListing } from "./use-add-listing";
import { useEditListing } from "./use-edit-listing";

/** What a mode gives the form: its state, how it stores, and its second button. */
export interface ListingFormMode {
  mode: "add" | "edit";
  values: ListingFormValues;
  change(next: ListingFormValues): void;
  fieldError: FieldError | null;
  images: SortableImage[];
  setImages(update: (current: SortableImage[]) => SortableImage[]): void;
  /** Photos chosen in the picker. */
  pick(files: FileList | null): void;
  remove(item: SortableImage): Promise<void>;
  submit(form: HTMLFormElement | null): Promise<void>;
  /** Any work running: inputs and buttons wait. */
  busy: boolean;
  saving: boolean;
  progress: number | null;
  submitLabel: string;
  second: { label: string; className: string; onClick(): void; busyText?: string; busy?: boolean };
  /** 'Undo' after 'Clear'. */
  onUndo?: () => void;
  dialogs: React.ReactNode;
}

export function ListingForm({
  kind,
  listing,
}: {
  kind: ListingKind;
  /** The record to edit, with its version; none to add one. */
  listing?: Listing & { version: number };
}) {
  return listing ? <EditListing kind={kind} listing={listing} /> : <AddListing kind={kind} />;
}

function AddListing({ kind }: { kind: ListingKind }) {
  return <ListingFormView kind={kind} form={useAddListing(kind)} />;
}

function EditListing({
  kind,
  listing,
}: {
  kind: ListingKind;
  listing: Listing & { version: number };
}) {
  return <ListingFormView kind={kind} form={useEditListing(kind, listing)} />;
}

function ListingFormView({ kind, form }: { kind: ListingKind; form: ListingFormMode }) {
  const pickerId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { busy, second } = form;
  return (
    <form
      ref={formRef}
      className="admin-form"
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit(formRef.current);
      }}
      aria-busy={busy}
    >
      <ListingFields
        kind={kind}
        mode={form.mode}
        values={form.values}
        onChange={form.change}
        disabled={busy}
        error={form.fieldError}
      />
      <div>
        <label className="form-label" htmlFor={pickerId}>
          {form.mode === "add" ? "Images" : "Add Images"}
        </label>
        <input
          id={pickerId}
          className="form-control file-input"
          type="file"
          accept="image/*"
          multiple
          disabled={busy}
          aria-describedby={`${pickerId}-count`}
          onChange={(e) => {
            form.pick(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
        <PhotoCount
          id={`${pickerId}-count`}
          count={form.images.length}
          picked={form.mode === "add"}
        />
        <UploadProgress fraction={form.progress} />
        <SortableImages
          items={form.images}
          onReorder={(next) => form.setImages(() => next)}
          onRemove={form.remove}
          onCaption={(item, caption) =>
            form.setImages((current) =>
              current.map((i) => (i.key === item.key ? { ...i, caption } : i)),
            )
          }
          disabled={busy}
        />
      </div>
      <ListingCheckPanel
        kind={kind}
        values={form.values}
        captions={form.images.map((i) => i.caption ?? "")}
      />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          <BusyLabel busy={form.saving} busyText="Saving...">
            {form.submitLabel}
          </BusyLabel>
        </button>
        <button type="button" className={second.className} onClick={second.onClick} disabled={busy}>
          <BusyLabel busy={second.busy ?? false} busyText={second.busyText ?? ""}>
            {second.label}
          </BusyLabel>
        </button>
      </div>
      {form.onUndo ? <UndoClear onUndo={form.onUndo} /> : null}
      {form.dialogs}
    </form>
  );
}
