import type { CSSProperties } from "react";
import { Link } from "react-router";
import { bedBathLine } from "./format";
import type { ListingSummary } from "./listing";

interface ListingCardProps {
  listing: ListingSummary;
  /** The route this card links to, supplied by its caller (spec §3). */
  to: string;
  style?: CSSProperties;
  className?: string;
  /** Above-the-fold cards load their image eagerly. */
  eager?: boolean;
  /** The title's level under the page's headings: 3 below a section title, 2 right below h1. */
  headingLevel?: 2 | 3;
}

export function ListingCard({
  listing,
  to,
  style,
  className,
  eager,
  headingLevel = 3,
}: ListingCardProps) {
  const Title = headingLevel === 2 ? "h2" : "h3";
  const facts = bedBathLine(listing.bedrooms, listing.bathrooms);
  return (
    <li className={className ? `card ${className}` : "card"} style={style}>
      <Link to={to} prefetch="intent">
        {listing.thumbnail_image_url ? (
          <img
            className="card-img"
            src={listing.thumbnail_image_url}
            alt=""
            width={600}
            height={400}
            loading={eager ? "eager" : "lazy"}
            decoding="async"
          />
        ) : (
          <div className="card-img card-img-empty">No images available</div>
        )}
        <div className="card-body">
          <Title className="card-title">{listing.address}</Title>
          {facts ? <p className="card-text">{facts}</p> : null}
          {listing.thumbnail_description ? (
            <p className="card-text">{listing.thumbnail_description}</p>
          ) : null}
        </div>
      </Link>
    </li>
  );
}
