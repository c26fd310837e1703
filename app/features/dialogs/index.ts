// The dialogs feature's public surface (docs/decisions/0032-layers-and-feature-surfaces.md). Pages that show a
// dialog only on rare paths import `~/features/dialogs/lazy` instead, so its code stays out of
// their bundle.
export { ConfirmedForm } from "./confirmed-form";
export { type ErrorDialogContent, errorDialogOf, messageOf } from "./error-dialog";
export { MessageDialog, type MessageDialogProps } from "./message-dialog";
export { useDialogs } from "./use-dialogs";
