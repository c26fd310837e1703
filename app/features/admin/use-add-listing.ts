// Adding a listing: a draft survives in session storage until added; photos are picked here and
// sent with the fields in one request (docs/behaviour.md §4, "Drafts").
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { type ListingKind, listingPath } from "~/domain/listing-kinds";
import { dialogDurations, messages, successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { ApiError, apiRequest, apiUrl } from "./api-client";
import { focusInvalidField } from "./form-parts";
import { draftKey, EMPTY_FORM, type ListingFormValues, parseDraft, toPayload } from "./form-values";
import type { FieldError } from "./listing-fields";
import type { ListingFormMode } from "./listing-form";
import type { SortableImage } from "./sortable-images";

type PickedImage = SortableImage & { file: File };

export function useAddListing(kind: ListingKind): ListingFormMode {
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const [values, setValues] = useState<ListingFormValues>(EMPTY_FORM);
  const [images, setImages] = useState<PickedImage[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [fieldError, setFieldError] = useState<FieldError | null>(null);
  /** What 'Clear' took away, until it is undone or the form is changed again. */
  const [cleared, setCleared] = useState<{
    values: ListingFormValues;
    images: PickedImage[];
  } | null>(null);
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
    setCleared(null);
  }

  async function remove(item: SortableImage) {
    if (await dialogs.confirm()) setImages((current) => current.filter((i) => i.key !== item.key));
  }

  /** Edits clear the refused field's mark (when that field changed) and the chance to undo. */
  function change(next: ListingFormValues) {
    const key = fieldError?.field as keyof ListingFormValues | undefined;
    if (key && next[key] !== values[key]) setFieldError(null);
    setCleared(null);
    setValues(next);
  }

  function clear() {
    const hadSomething = images.length > 0 || JSON.stringify(values) !== JSON.stringify(EMPTY_FORM);
    setCleared(hadSomething ? { values, images } : null);
    setFieldError(null);
    setValues(EMPTY_FORM);
    setImages([]);
    window.sessionStorage.removeItem(draftKey(kind.collection));
  }

  function undoClear() {
    if (!cleared) return;
    setValues(cleared.values);
    setImages(cleared.images);
    setCleared(null);
  }

  async function submit(form: HTMLFormElement | null) {
    const body = new FormData();
    body.append("data", JSON.stringify(toPayload(values)));
    body.append("captions", JSON.stringify(images.map((image) => image.caption ?? "")));
    for (const image of images) body.append("images", image.file, image.file.name);
    setProgress(0);
    setCleared(null);
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
        setFieldError({ field: "address", message: messages.duplicateAddress(kind.noun) });
        window.alert(messages.duplicateAddress(kind.noun));
      } else {
        if (error instanceof ApiError && error.field)
          setFieldError({ field: error.field, message: error.message });
        await dialogs.failed(error, (message) => messages.addFailed(kind.noun, message));
      }
      focusInvalidField(form);
    }
  }

  return {
    mode: "add",
    values,
    change,
    fieldError,
    images,
    // Reordering and captions keep each photo's file (only those change).
    setImages: (update) => setImages((current) => update(current) as PickedImage[]),
    pick,
    remove,
    submit,
    busy: saving,
    saving,
    progress,
    submitLabel: `Add ${kind.noun}`,
    second: { label: "Clear", className: "btn btn-secondary", onClick: clear },
    onUndo: cleared ? undoClear : undefined,
    dialogs: dialogs.element,
  };
}
