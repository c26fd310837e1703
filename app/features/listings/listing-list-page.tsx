import { useEffect, useId, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import type { ListingSummary } from "~/domain/listing";
import {
  applyFilters,
  filtersFromQuery,
  type ListFilters,
  NO_FILTERS,
  resolveFilters,
  storeFilters,
} from "~/domain/listing-filters";
import { type ListingKind, listingPath, PROPERTY_TYPES } from "~/domain/listing-kinds";
import { useLiveRevalidation } from "~/features/live";
import { ListingCard } from "./listing-card";

interface ListingListPageProps {
  kind: ListingKind;
  listings: ListingSummary[];
}

/** /properties and /new-construction: one page, filters per the kind's rules, live. */
export function ListingListPage({ kind, listings }: ListingListPageProps) {
  useLiveRevalidation([kind.collection]);
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const ids = { available: useId(), type: useId() };
  const [filters, setFilters] = useState<ListFilters>(
    () => filtersFromQuery(kind.collection, searchParams) ?? NO_FILTERS,
  );

  // Session storage exists only in the browser: restore (or store the query's) after hydration.
  useEffect(() => {
    setFilters(resolveFilters(kind.collection, searchParams, window.sessionStorage));
  }, [kind.collection, searchParams]);

  function change(next: ListFilters) {
    setFilters(next);
    storeFilters(kind.collection, next, window.sessionStorage);
    if (location.search) navigate(kind.route);
  }

  const shown = applyFilters(listings, filters);

  return (
    <section>
      <h1>{kind.listTitle}</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        {kind.hasOffer ? (
          <div className="form-check">
            <input
              id={ids.available}
              type="checkbox"
              checked={filters.availableOnly}
              onChange={(e) => change({ ...filters, availableOnly: e.currentTarget.checked })}
            />
            <label htmlFor={ids.available}>Only show available properties</label>
          </div>
        ) : null}
        <div>
          <label className="form-label" htmlFor={ids.type}>
            {kind.typeFilterLabel}
          </label>
          <select
            id={ids.type}
            className="form-select"
            value={filters.propertyType}
            onChange={(e) => change({ ...filters, propertyType: e.currentTarget.value })}
          >
            <option value="">All</option>
            {[PROPERTY_TYPES[0], PROPERTY_TYPES[2], PROPERTY_TYPES[1]].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
      </form>
      {shown.length === 0 ? (
        <p className="empty">No listings match these filters right now.</p>
      ) : (
        <ul className="card-grid">
          {shown.map((listing, i) => (
            <ListingCard
              key={listing.id}
              listing={listing}
              to={listingPath(kind.collection, listing.id)}
              eager={i < 3}
              priority={i === 0}
              headingLevel={2}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
