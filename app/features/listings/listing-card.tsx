import type { CSSProperties } from "react";
import { Link } from "react-router";
import type { ListingSummary } from "~/domain/listing";
import { bedBathLine, formatPrice } from "~/domain/listing-format";
import { Photo } from "~/features/images";

interface ListingCardProps {
  listing: ListingSummary;
  /** The route this card links to, supplied by its caller (docs/behaviour.md §3). */
  to: string;
  style?: CSSProperties;
  className?: string;
  /** Above-the-fold cards load their image eagerly. */
  eager?: boolean;
  /** The first card of a list: its photo is likely the page's largest paint, so fetch it first. */
  priority?: boolean;
  /** The title's level under the page's headings: 3 below a section title, 2 right below h1. */
  headingLevel?: 2 | 3;
}

/**
 * One card for both kinds. Property cards also carry the status badge and, when available, the
 * price by the detail page's rule (docs/decisions/0047-listing-presentation-and-detail-layout.md).
 */
export function ListingCard({
  listing,
  to,
  style,
  className,
  eager,
  priority,
  headingLevel = 3,
}: ListingCardProps) {
  const Title = headingLevel === 2 ? "h2" : "h3";
  const facts = bedBathLine(listing.bedrooms, listing.bathrooms);
  const isProperty = listing.collection === "properties";
  const available = listing.currently_available === true;
  const price = isProperty && available && listing.price ? formatPrice(listing.price) : "";
  return (
    <li className={className ? `card ${className}` : "card"} style={style}>
      <Link to={to} prefetch="intent">
        <div className="card-media">
          {listing.thumbnail_image_url ? (
            <Photo
              className="card-img"
              src={listing.thumbnail_image_url}
              layout="card"
              lazy={!eager}
              priority={priority}
            />
          ) : (
            <div className="card-img card-img-empty">No images available</div>
          )}
          {isProperty ? (
            <span className={available ? "status status-on" : "status status-off"}>
              {available ? "Available" : "Not Available"}
            </span>
          ) : null}
        </div>
        <div className="card-body">
          <Title className="card-title">{listing.address}</Title>
          {facts ? <p className="card-text">{facts}</p> : null}
          {listing.thumbnail_description ? (
            <p className="card-text">{listing.thumbnail_description}</p>
          ) : null}
          {price ? <p className="card-price">{price}</p> : null}
        </div>
      </Link>
    </li>
  );
}
