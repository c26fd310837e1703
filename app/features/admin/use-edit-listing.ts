// Editing a listing: photo uploads and removals apply at once; the form remembers the version
// of the record it shows and sends it with Save, and the server refuses a save when someone else
// changed the record since (the stale-edit dialog; docs/decisions/0057-optimistic-concurrency-with-versions.md).
import { useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { Listing } from "~/domain/listing";
import { type ListingKind, listingPath } from "~/domain/listing-kinds";
import { addedMessages, dialogDurations, messages, successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { ApiError, apiRequest, apiUrl } from "./api-client";
import { focusInvalidField } from "./form-parts";
import { type ListingFormValues, toPayload, valuesFromListing } from "./form-values";
import { useLeaveGuard } from "./leave-guard";
import type { FieldError } from "./listing-fields";
import type { ListingFormMode } from "./listing-form";
import type { SortableImage } from "./sortable-images";

const asItems = (urls: string[], captions: Record<string, string> = {}): SortableImage[] =>
  urls.map((url) => ({ key: url, src: url, caption: captions[url] ?? "" }));

/** What a photo upload or removal answers (see ListingWrites.ImagesChange). */
interface ImagesChange {
  image_urls: string[];
  version: number;
  previous_version: number;
}

export function useEditListing(
  kind: ListingKind,
  listing: Listing & { version: number },
): ListingFormMode {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const dialogs = useDialogs();
  const [values, setValues] = useState<ListingFormValues>(() => valuesFromListing(listing));
  const [images, setImages] = useState<SortableImage[]>(() =>
    asItems(listing.image_urls, listing.image_captions),
  );
  const [busy, setBusy] = useState<null | "saving" | "deleting" | "uploading" | "removing">(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [version, setVersion] = useState(listing.version);
  const url = apiUrl(kind.collection, listing.id);
  const [fieldError, setFieldError] = useState<FieldError | null>(null);
  // Unsaved: the fields differ from the loaded record, or the photos' order from the stored one
  // (uploads and removals are stored at once).
  const [savedValues] = useState(() => valuesFromListing(listing));
  const [savedOrder, setSavedOrder] = useState(() => listing.image_urls.join("\n"));
  const dirty =
    JSON.stringify(values) !== JSON.stringify(savedValues) ||
    images.map((i) => i.key).join("\n") !== savedOrder;
  const allowLeave = useLeaveGuard(dirty, dialogs);

  function change(next: ListingFormValues) {
    const key = fieldError?.field as keyof ListingFormValues | undefined;
    if (key && next[key] !== values[key]) setFieldError(null);
    setValues(next);
  }

  /**
   * This form's own photo change moves it to the new version, so its own save goes through;
   * if someone else had changed the record before, it stays behind and the save is refused.
   */
  const followVersion = (change: ImagesChange) =>
    setVersion((current) => (change.previous_version === current ? change.version : current));

  async function upload(files: FileList | null) {
    const chosen = [...(files ?? [])].filter((f) => f.type.startsWith("image/"));
    if (chosen.length === 0) return;
    const body = new FormData();
    for (const file of chosen) body.append("images", file, file.name);
    setBusy("uploading");
    setProgress(0);
    try {
      const res = await apiRequest<ImagesChange>("POST", `${url}/images`, body, setProgress);
      followVersion(res);
      // Keep the local order of the photos already here; new ones go last.
      const added = res.image_urls.filter((u) => !images.some((i) => i.key === u));
      setImages((current) => [...current, ...asItems(added)]);
      setSavedOrder((order) => [order, ...added].filter(Boolean).join("\n"));
      setBusy(null);
      setProgress(null);
      await dialogs.success(successTitles.uploaded);
    } catch (error) {
      setBusy(null);
      setProgress(null);
      await dialogs.failed(error, messages.addImagesFailed);
    }
  }

  async function remove(item: SortableImage) {
    if (!(await dialogs.confirm())) return;
    setBusy("removing");
    try {
      followVersion(await apiRequest<ImagesChange>("DELETE", `${url}/images`, { url: item.key }));
      setImages((current) => current.filter((i) => i.key !== item.key));
      setSavedOrder((order) =>
        order
          .split("\n")
          .filter((u) => u !== item.key)
          .join("\n"),
      );
      setBusy(null);
      await dialogs.success(successTitles.removed);
    } catch (error) {
      setBusy(null);
      // The server refusing the request (the photo or listing is gone) is a removal error;
      // anything else means deleting the stored image failed.
      const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
      await dialogs.failed(
        error,
        refused ? messages.imageRemoveFailed : messages.imageDeleteFailed,
      );
    }
  }

  async function save(form: HTMLFormElement | null) {
    setBusy("saving");
    try {
      await apiRequest("PUT", url, {
        ...toPayload(values),
        image_urls: images.map((i) => i.key),
        // Captions by photo: they follow each photo's new place (docs/behaviour.md §20).
        image_captions: Object.fromEntries(images.map((i) => [i.key, i.caption ?? ""])),
        version,
      });
      setBusy(null);
      allowLeave();
      await dialogs.success(successTitles.saved, dialogDurations.saved);
      navigate(listingPath(kind.collection, listing.id));
    } catch (error) {
      setBusy(null);
      if (error instanceof ApiError && error.code === "stale") {
        // Trying again cannot help (docs/behaviour.md §8's "Please try again" would mislead): say why and
        // what to do. The form keeps what was typed, so nothing is lost before reloading.
        await dialogs.failed(error, () => addedMessages.staleEdit(kind.noun));
        return;
      }
      if (error instanceof ApiError && error.field)
        setFieldError({ field: error.field, message: error.message });
      await dialogs.failed(error, (message) => messages.saveFailed(kind.noun, message));
      focusInvalidField(form);
    }
  }

  async function destroy() {
    if (!(await dialogs.confirm())) return;
    setBusy("deleting");
    try {
      await apiRequest("DELETE", url);
      setBusy(null);
      allowLeave();
      await dialogs.success(successTitles.deleted);
      navigate(kind.route);
    } catch (error) {
      setBusy(null);
      if (error instanceof ApiError && error.status === 404) {
        // Already gone (deleted elsewhere): nothing left to edit, so on to the list.
        allowLeave();
        await dialogs.failed(error, () => messages.notFoundOnDelete(kind.noun));
        navigate(kind.route);
        return;
      }
      await dialogs.failed(error, (message) => messages.deleteFailed(kind.noun, message));
      revalidate();
    }
  }

  return {
    mode: "edit",
    values,
    change,
    fieldError,
    images,
    setImages,
    pick: (files) => void upload(files),
    remove,
    submit: save,
    busy: busy !== null,
    saving: busy === "saving",
    progress,
    submitLabel: "Save",
    second: {
      label: "Delete",
      className: "btn btn-danger",
      onClick: () => void destroy(),
      busy: busy === "deleting",
      busyText: "Deleting...",
    },
    dialogs: dialogs.element,
  };
}
