import { Link } from "react-router";
import { cardDelaySeconds } from "~/domain/featured";
import { listingPath } from "~/domain/listing-kinds";
import { usePhotoUrl } from "~/features/images";
import { pageMeta } from "~/features/layout";
import { ListingCard } from "~/features/listings";
import { loadFeaturedSummaries } from "~/features/listings/index.server";
import { useLiveRevalidation } from "~/features/live";
import { companyFrom, useCompany } from "~/features/site-settings";
import { featuredEntries } from "~/features/site-settings/index.server";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) => {
  const company = companyFrom(matches);
  return pageMeta("Home", `${company.name}: ${company.tagline}`, matches);
};

export async function loader({ context }: Route.LoaderArgs) {
  // The staff's list, in their order (docs/behaviour.md §19): only those cards are read.
  const featured = await loadFeaturedSummaries(context, await featuredEntries(context.db));
  return { featured };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  useLiveRevalidation(["properties", "newConstruction"]);
  const company = useCompany();
  const photoUrl = usePhotoUrl();
  return (
    <>
      <section className="hero">
        <h1 className="visually-hidden">{company.name}</h1>
        <img
          src={photoUrl(company.logo.src)}
          alt={company.logo.alt}
          width={company.logo.width * 2}
          height={company.logo.height * 2}
          fetchPriority="high"
        />
        <p>{company.tagline}</p>
        <Link className="btn btn-primary btn-lg" to="/properties?filter=available">
          Currently Available Properties
        </Link>
      </section>
      <section aria-labelledby="featured-title">
        <h2 id="featured-title" className="section-title">
          Featured Properties
        </h2>
        <ul className="card-grid">
          {loaderData.featured.map((listing, i) => (
            <ListingCard
              key={`${listing.collection}/${listing.id}`}
              listing={listing}
              to={listingPath(listing.collection, listing.id)}
              className="fade-in"
              style={{ animationDelay: `${cardDelaySeconds(i)}s` }}
              eager
            />
          ))}
        </ul>
      </section>
    </>
  );
}
