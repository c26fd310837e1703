// The detail page's dialog for a listing that is missing or failed to load (the spec's error
// catalogue): loaded only then, with the catalogue's texts (docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { Suspense } from "react";
import { messages } from "~/domain/messages";
import { LazyMessageDialog as MessageDialog } from "~/features/dialogs/lazy";

export default function MissingListingDialog({
  problem,
  onClose,
}: {
  problem: "missing" | "failed";
  onClose: () => void;
}) {
  return (
    <Suspense fallback={null}>
      <MessageDialog
        variant="error"
        title={messages.errorTitle}
        text={problem === "missing" ? messages.noData : messages.loadFailed}
        onClose={onClose}
      />
    </Suspense>
  );
}
