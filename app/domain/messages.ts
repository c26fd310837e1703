// docs/behaviour.md §8, character for character. Pages and tests import these; nothing re-types them.
import { CONTACT_TO_RESERVE } from "./listing-format";
import type { ListingKind } from "./listing-kinds";

type Noun = ListingKind["noun"];
const lower = (noun: Noun) => noun.toLowerCase();

export const messages = {
  availabilityFailedTitle: "Failed to Update",
  availabilityFailed: (error: string) =>
    `Could not update property availability in the database. Please try again. Error: ${error}`,
  addFailed: (noun: Noun, error: string) =>
    `Failed to add ${lower(noun)}. Please try again. Error: ${error}`,
  fetchFailed: (noun: Noun, error: string) =>
    `Failed to fetch ${lower(noun)} details. Please try again. Error: ${error}`,
  addImagesFailed: (error: string) => `Failed to add images. Please try again. Error: ${error}`,
  saveFailed: (noun: Noun, error: string) =>
    `Failed to save ${lower(noun)}. Please try again. Error: ${error}`,
  deleteFailed: (noun: Noun, error: string) =>
    `Failed to delete ${lower(noun)}. Please try again. Error: ${error}`,
  imageDeleteFailed: (error: string) => `Error deleting image. Please try again. Error: ${error}`,
  imageRemoveFailed: (error: string) => `Error: ${error}`,
  notFoundOnDelete: (noun: Noun) => `${noun} not found.`,
  noDownloadUrl: "Failed to get download URL",
  errorTitle: "Error",
  noData: "No property data available",
  loadFailed: "Failed to load property data",
  duplicateAddress: (noun: Noun) => `${noun} with this address already exists!`,
  imageLoadFailed: "This image failed to load",
  confirm: "Are you sure?",
  loginFailedLog: "Error logging in with Google",
  adminCheckFailedLog: "Failed to check admin status:",
} as const;

/** Messages docs/behaviour.md §8 does not list (additions; the catalogue above stays untouched). */
export const addedMessages = {
  /** A save based on an older version of the record (shown alone, under the 'Error' title). */
  staleEdit: (noun: Noun) =>
    `This ${lower(noun)} was changed by someone else since you opened it. Reload to see the changes.`,
  /** The site settings page's save failed (shown under the 'Error' title, with the footer). */
  settingsSaveFailed: (error: string) =>
    `Failed to save settings. Please try again. Error: ${error}`,
  /** 'Feature on home page' / 'Remove from home page' failed (under 'Failed to Update'). */
  featuredFailed: (error: string) =>
    `Could not update the home page's featured listings. Please try again. Error: ${error}`,
  /** The detail page's link for an available Vacation property without a reservation URL. */
  contactToReserve: CONTACT_TO_RESERVE,
  /** The admin forms' warning for a Vacation property without a reservation URL. */
  noReservationUrl: "Guests cannot reserve this property online until it has a Reservation URL.",
  /** Leaving a form with unsaved changes (a confirm dialog: Yes leaves, Cancel stays). */
  leaveUnsaved: "Leave this page? Your unsaved changes will be lost.",
  /** Shown after 'Clear', with an Undo button. */
  formCleared: "The form was cleared.",
} as const;

export const successTitles = {
  updated: "Updated!",
  added: (noun: Noun) => `${noun} Added!`,
  saved: "Saved!",
  removed: "Removed!",
  uploaded: "Uploaded!",
  deleted: "Deleted!",
} as const;

/** docs/behaviour.md §9 durations in milliseconds. */
export const dialogDurations = {
  availabilitySuccess: 3000,
  added: 1500,
  saved: 1500,
} as const;
