import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { type Collection, KINDS, listingPath } from "~/domain/listing-kinds";
import { successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import { formatWhen } from "~/shared/format-when";
import { useHydrated } from "~/shared/use-hydrated";
import { apiRequest } from "./api-client";

export interface DeletedItem {
  entry: number;
  collection: Collection;
  id: string;
  address: string;
  deleted_at: string;
  deleted_by: string | null;
}

/** /admin/deleted: deleted listings that can still be restored (docs/behaviour.md §22). */
/** `mayErase`: 'Erase for good' is the Owner's (docs/behaviour.md §6, "Staff roles"). */
export function DeletedList({ items, mayErase }: { items: DeletedItem[]; mayErase: boolean }) {
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState<number | null>(null);
  const [restored, setRestored] = useState<{ address: string; to: string } | null>(null);
  const [erased, setErased] = useState<string | null>(null);
  const hydrated = useHydrated();

  // 'Erase for good' (docs/behaviour.md §22): the entry, its history and every copy of its photos.
  async function erase(item: DeletedItem) {
    if (!(await dialogs.confirm())) return;
    setBusy(item.entry);
    setRestored(null);
    setErased(null);
    try {
      await apiRequest("DELETE", `/api/deleted/${item.entry}`);
      await revalidate();
      setErased(item.address);
      await dialogs.success(successTitles.deleted);
    } catch (error) {
      await dialogs.failed(error);
    } finally {
      setBusy(null);
    }
  }

  async function restore(item: DeletedItem) {
    setBusy(item.entry);
    setRestored(null);
    setErased(null);
    try {
      const { collection, id } = await apiRequest<{ collection: Collection; id: string }>(
        "POST",
        `/api/deleted/${item.entry}/restore`,
        {},
      );
      await revalidate();
      setRestored({ address: item.address, to: listingPath(collection, id) });
    } catch (error) {
      await dialogs.failed(error);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <p role="status">
        {restored ? (
          <>
            {`${restored.address} is restored: `}
            <Link to={restored.to}>see it</Link>.
          </>
        ) : null}
        {erased ? `${erased} is erased for good.` : null}
      </p>
      {items.length === 0 ? (
        <p>Nothing was deleted in the last 30 days.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Kind</th>
              <th scope="col">Deleted</th>
              <th scope="col">By</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.entry} data-testid="deleted-entry">
                <td>{item.address}</td>
                <td>{KINDS[item.collection].noun}</td>
                <td>{formatWhen(item.deleted_at)}</td>
                <td>{item.deleted_by ?? "—"}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    disabled={busy !== null}
                    aria-label={`Restore ${item.address}`}
                    onClick={() => restore(item)}
                  >
                    {busy === item.entry ? <span className="spinner" aria-hidden="true" /> : null}
                    Restore
                  </button>
                  {mayErase ? (
                    <>
                      {" "}
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        disabled={!hydrated || busy !== null}
                        aria-label={`Erase ${item.address} for good`}
                        onClick={() => erase(item)}
                      >
                        Erase for good
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dialogs.element}
    </>
  );
}
