import { Link } from "react-router";
import { company } from "~/domain/company";
import { cardDelaySeconds, selectFeatured } from "~/domain/featured";
import { listingPath } from "~/domain/listing-kinds";
import { pageMeta } from "~/features/layout/page-meta";
import { loadListingSummaries } from "~/features/listings/list-loader.server";
import { ListingCard } from "~/features/listings/listing-card";
import { useLiveRevalidation } from "~/features/live/use-live-revalidation";
import type { Route } from "./+types/home";

export const meta = () => pageMeta("Home", `${company.name}: ${company.tagline}`);

export async function loader({ context }: Route.LoaderArgs) {
  const { listings } = await loadListingSummaries(context);
  return { featured: selectFeatured(listings, company.featuredAddresses) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  useLiveRevalidation(["properties", "newConstruction"]);
  return (
    <>
      <section className="hero">
        <h1 className="visually-hidden">{company.name}</h1>
        <img
          src={company.logo.src}
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
