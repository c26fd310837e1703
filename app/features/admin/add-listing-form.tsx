import { useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { type ListingKind, listingPath } from "~/domain/listing-kinds";
import { dialogDurations, messages, successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { ApiError, apiRequest, apiUrl, requestIdOf } from "./api-client";
import { BusyLabel, UploadProgress } from "./form-parts";
import { draftKey, EMPTY_FORM, type ListingFormValues, parseDraft, toPayload } from "./form-values";
import { ListingFields } from "./listing-fields";
import { type SortableImage, SortableImages } from "./sortable-images";

type PickedImage = SortableImage & { file: File };

/** /addproperty and /addnewconstruction: a draft survives in session storage until added. */
export function AddListingForm({ kind }: { kind: ListingKind }) {
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const pickerId = useId();
  const [values, setValues] = useState<ListingFormValues>(EMPTY_FORM);
  const [images, setImages] = useState<PickedImage[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const restored = useRef(false);
  const saving = progress !== null;

  useEffect(() => {
    const draft = parseDraft(window.sessionStorage.getItem(draftKey(kind.collection)));
    if (draft) setValues(draft);
    restored.current = true;
  }, [kind.collection]);
  useEffect(() => {
    if (restored.current)
      window.sessionStorage.setItem(draftKey(kind.collection), JSON.stringify(values));
  }, [values, kind.collection]);
  // Previews are object URLs: free them when the form goes away.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const u of urls) URL.revokeObjectURL(u);
    };
  }, []);

  function pick(files: FileList | null) {
    const picked = [...(files ?? [])]
      .filter((f) => f.type.startsWith("image/"))
      .map((file) => {
        const src = URL.createObjectURL(file);
        previews.current.add(src);
        return { key: crypto.randomUUID(), src, file };
      });
    setImages((current) => [...current, ...picked]);
  }

  async function remove(item: SortableImage) {
    if (await dialogs.confirm()) setImages((current) => current.filter((i) => i.key !== item.key));
  }

  function clear() {
    setValues(EMPTY_FORM);
    setImages([]);
    window.sessionStorage.removeItem(draftKey(kind.collection));
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const body = new FormData();
    body.append("data", JSON.stringify(toPayload(values)));
    for (const image of images) body.append("images", image.file, image.file.name);
    setProgress(0);
    try {
      const { id } = await apiRequest<{ id: string }>(
        "POST",
        apiUrl(kind.collection),
        body,
        setProgress,
      );
      window.sessionStorage.removeItem(draftKey(kind.collection));
      setProgress(null);
      await dialogs.success(successTitles.added(kind.noun), dialogDurations.added);
      navigate(listingPath(kind.collection, id));
    } catch (error) {
      setProgress(null);
      if (error instanceof ApiError && error.status === 409) {
        window.alert(messages.duplicateAddress(kind.noun));
      } else {
        await dialogs.error(
          messages.addFailed(kind.noun, (error as Error).message),
          undefined,
          requestIdOf(error),
        );
      }
    }
  }

  return (
    <form className="admin-form" onSubmit={submit} aria-busy={saving}>
      <ListingFields
        kind={kind}
        mode="add"
        values={values}
        onChange={setValues}
        disabled={saving}
      />
      <div>
        <label className="form-label" htmlFor={pickerId}>
          Images
        </label>
        <input
          id={pickerId}
          className="form-control"
          type="file"
          accept="image/*"
          multiple
          disabled={saving}
          onChange={(e) => {
            pick(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
        <SortableImages
          items={images}
          onReorder={(next) => setImages(next as PickedImage[])}
          onRemove={remove}
          disabled={saving}
        />
      </div>
      <UploadProgress fraction={progress} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          <BusyLabel busy={saving} busyText="Saving...">
            Add {kind.noun}
          </BusyLabel>
        </button>
        <button type="button" className="btn btn-outline" onClick={clear} disabled={saving}>
          Clear
        </button>
      </div>
      {dialogs.element}
    </form>
  );
}
