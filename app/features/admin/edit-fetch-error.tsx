import { isRouteErrorResponse, useNavigate, useParams, useRouteError } from "react-router";
import { type ListingKind, listingPath } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { MessageDialog } from "~/features/dialogs";
import { NotFoundPage } from "~/features/layout";

/** Why the edit form's record could not be fetched, in words for the dialog. */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const message = (error.data as { message?: unknown } | null)?.message;
    return typeof message === "string" ? message : error.statusText || `HTTP ${error.status}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The edit routes' error boundary. For anyone but an admin (and for a missing record) these
 * routes are the ordinary 404 page; a failed read shows docs/behaviour.md §8 'Failed to fetch … details',
 * and OK goes back to the listing.
 */
export function EditFetchError({ kind }: { kind: ListingKind }) {
  const error = useRouteError();
  const navigate = useNavigate();
  const { id } = useParams();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <section>
      <h1>{`Edit ${kind.noun}`}</h1>
      <MessageDialog
        variant="error"
        title={messages.errorTitle}
        text={messages.fetchFailed(kind.noun, describe(error))}
        onClose={() => navigate(id ? listingPath(kind.collection, id) : kind.route)}
      />
    </section>
  );
}
