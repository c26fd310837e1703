import { useEffect, useState } from "react";
import { Form, Link } from "react-router";
import { formatPrice } from "~/domain/listing-format";
import { KINDS, listingPath } from "~/domain/listing-kinds";
import {
  DEFAULT_TABLE_QUERY,
  sortHref,
  TABLE_COLUMNS,
  TABLE_PAGE_SIZE,
  type TableQuery,
  tableHref,
} from "~/domain/listing-table";
import { formatWhen } from "~/shared/format-when";
import { AvailabilityToggle } from "./availability-toggle";
import { StillAvailableButton } from "./still-available-button";

/** One row as the loader sends it (listTable() in features/listings). */
export interface ListingTableRow {
  collection: "properties" | "newConstruction";
  id: string;
  address: string;
  property_type: string;
  currently_available: boolean | null;
  price: string | null;
  photos: number;
  changed: string;
  /** Available, and not confirmed for STALE_AFTER_DAYS (docs/behaviour.md §30). */
  stale: boolean;
  /** YYYY-MM-DD (UTC): when its availability was last confirmed. */
  checked: string;
}

/** What the viewer's role lets them do from the table (docs/behaviour.md §6, "Staff roles"). */
export interface ListingTableMay {
  /** 'Edit' (Owner, Manager). */
  edit: boolean;
  /** 'Toggle Availability' and 'Still available' (and leasing agents). */
  availability: boolean;
}

interface ListingTableProps {
  rows: ListingTableRow[];
  total: number;
  query: TableQuery;
  may: ListingTableMay;
}

/** /admin/listings: both kinds in one table; searching, sorting and paging are links and a GET form. */
export function ListingTable({ rows, total, query, may }: ListingTableProps) {
  const pages = Math.max(1, Math.ceil(total / TABLE_PAGE_SIZE));
  const first = (query.page - 1) * TABLE_PAGE_SIZE + 1;
  const sortChanged =
    query.sort !== DEFAULT_TABLE_QUERY.sort || query.dir !== DEFAULT_TABLE_QUERY.dir;
  return (
    <>
      <Form method="get" action="/admin/listings" className="table-search" role="search">
        <label htmlFor="listing-search">Search listings</label>
        <input
          id="listing-search"
          className="form-control"
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={200}
        />
        <span className="form-check">
          <input
            id="listing-stale"
            type="checkbox"
            name="stale"
            value="1"
            defaultChecked={query.stale}
          />
          <label htmlFor="listing-stale">Stale only</label>
        </span>
        {sortChanged ? (
          <>
            <input type="hidden" name="sort" value={query.sort} />
            <input type="hidden" name="dir" value={query.dir} />
          </>
        ) : null}
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
      </Form>
      <p role="status">
        {total === 0
          ? query.q || query.stale
            ? query.q
              ? "No listing matches the search."
              : "No listing is stale."
            : "There are no listings yet."
          : `Listings ${Math.min(first, total)}–${Math.min(first + rows.length - 1, total)} of ${total}`}
      </p>
      {rows.length > 0 ? (
        <div className="table-scroll">
          <table className="table listing-table">
            <thead>
              <tr>
                {TABLE_COLUMNS.map((column) => {
                  const sorted = query.sort === column.sort;
                  return (
                    <th
                      key={column.sort}
                      scope="col"
                      aria-sort={
                        sorted ? (query.dir === "asc" ? "ascending" : "descending") : undefined
                      }
                    >
                      <Link className="sort-link" to={sortHref(query, column.sort)}>
                        {column.label}
                        {sorted ? (
                          <span aria-hidden="true">{query.dir === "asc" ? " ▲" : " ▼"}</span>
                        ) : null}
                      </Link>
                    </th>
                  );
                })}
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <TableRowView key={`${row.collection}/${row.id}`} row={row} may={may} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pages > 1 ? (
        <nav aria-label="Pages" className="table-pages">
          {query.page > 1 ? (
            <Link to={tableHref({ ...query, page: query.page - 1 })} rel="prev">
              Previous page
            </Link>
          ) : null}
          <span>
            Page {query.page} of {pages}
          </span>
          {query.page < pages ? (
            <Link to={tableHref({ ...query, page: query.page + 1 })} rel="next">
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

function TableRowView({ row, may }: { row: ListingTableRow; may: ListingTableMay }) {
  const kind = KINDS[row.collection];
  // The toggle shows at once; fresh loader data replaces it.
  const [availableOverride, setAvailableOverride] = useState<boolean | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the stored value changes
  useEffect(() => setAvailableOverride(null), [row.currently_available]);
  const available = availableOverride ?? row.currently_available === true;
  return (
    <tr data-testid="listing-row">
      <td>{row.address}</td>
      <td>{kind.hasOffer ? "Property" : "New construction"}</td>
      <td>{row.property_type}</td>
      <td>
        {kind.hasOffer ? (
          <>
            <span className={available ? "status status-on" : "status status-off"}>
              {available ? "Available" : "Not Available"}
            </span>
            {available && row.stale ? (
              <>
                {" "}
                <span className="status status-stale" title={`Availability checked ${row.checked}`}>
                  Stale
                </span>
              </>
            ) : null}
          </>
        ) : (
          "—"
        )}
      </td>
      <td>{kind.hasOffer ? formatPrice(row.price) : ""}</td>
      <td>{row.photos}</td>
      <td>{formatWhen(row.changed)}</td>
      <td className="table-actions">
        <Link to={listingPath(row.collection, row.id)} aria-label={`View ${row.address}`}>
          View
        </Link>
        {may.edit ? (
          <Link
            to={`${kind.editRoute}/${encodeURIComponent(row.id)}`}
            aria-label={`Edit ${row.address}`}
          >
            Edit
          </Link>
        ) : null}
        {kind.hasOffer && may.availability ? (
          <AvailabilityToggle
            propertyId={row.id}
            available={available}
            onAvailability={setAvailableOverride}
            describedAs={row.address}
          />
        ) : null}
        {kind.hasOffer && available && may.availability ? (
          <StillAvailableButton propertyId={row.id} describedAs={row.address} />
        ) : null}
      </td>
    </tr>
  );
}
