// /admin/feeds, 'Listing feeds' (docs/behaviour.md §28): each feed's address and listing count,
// when it was last fetched and by what, a warning when the HotPads count moved by more than 20%
// since the network last fetched it, and every available property the HotPads feed leaves out,
// with its reasons (app/domain/listing-feeds.ts).
import { hotpadsGaps, isAvailableProperty } from "~/domain/listing-feeds";
import { KINDS } from "~/domain/listing-kinds";
import { requireStaff } from "~/features/auth/index.server";
import {
  countSwing,
  FEED_NAMES,
  FEEDS,
  feedContact,
  lastFetches,
  siteUrl,
  swingWarning,
} from "~/features/feeds/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/admin-feeds";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Listing feeds", "Admin: the listing feeds and who reads them.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "feeds:read");
  const [snapshot, fetches, built] = await Promise.all([
    context.feeds.snapshot(),
    lastFetches(context.db),
    Promise.all(FEED_NAMES.map((name) => context.feeds.feed(name))),
  ]);
  const origins = { publicUrl: context.env.publicUrl };
  const contact = feedContact(snapshot.content);
  const feeds = built.map((feed) => {
    const last = fetches.get(feed.name) ?? null;
    const swing = feed.name === "hotpads" && last && countSwing(last.listingCount, feed.count);
    return {
      name: feed.name,
      title: FEEDS[feed.name].title,
      url: siteUrl(origins, FEEDS[feed.name].path),
      count: feed.count,
      last,
      warning: swing ? swingWarning(last.listingCount, feed.count) : null,
    };
  });
  const leftOut = snapshot.listings
    .filter(isAvailableProperty)
    .map((l) => ({
      id: l.id,
      address: l.address,
      edit: `${KINDS[l.collection].editRoute}/${encodeURIComponent(l.id)}`,
      reasons: hotpadsGaps(l, contact).map((r) => r.reason),
    }))
    .filter((l) => l.reasons.length > 0);
  return { feeds, leftOut };
}

export default function ListingFeeds({ loaderData }: Route.ComponentProps) {
  const { feeds, leftOut } = loaderData;
  return (
    <section>
      <h1>Listing feeds</h1>
      <p>
        Listing sites read these addresses. The HotPads feed (the Zillow rental network) carries
        every available property that has what the network requires; the JSON feed every public
        listing; the Atom feed the 50 newest. A change shows in them within seconds.
      </p>
      {feeds.map((f) =>
        f.warning ? (
          <p key={`warning-${f.name}`} role="alert" className="alert-error">
            {f.warning}
          </p>
        ) : null,
      )}
      <table className="table feeds-table">
        <thead>
          <tr>
            <th scope="col">Feed</th>
            <th scope="col">Address</th>
            <th scope="col">Listings</th>
            <th scope="col">Last fetched</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {feeds.map((f) => (
            <tr key={f.name} data-feed={f.name}>
              <th scope="row">{f.title}</th>
              <td>
                <a href={f.url}>{f.url}</a>
              </td>
              <td>{f.count}</td>
              <td>
                {f.last ? (
                  <>
                    <time dateTime={f.last.fetchedAt}>
                      {f.last.fetchedAt.slice(0, 16).replace("T", " ")}
                    </time>{" "}
                    UTC ({f.last.listingCount} listing{f.last.listingCount === 1 ? "" : "s"})
                  </>
                ) : (
                  "Never"
                )}
              </td>
              <td className="feeds-agent">
                {f.last ? f.last.userAgent || "(no user agent)" : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Left out of the HotPads feed</h2>
      {leftOut.length === 0 ? (
        <p>Every available property is in the HotPads feed.</p>
      ) : (
        <>
          <p>
            {leftOut.length} available propert{leftOut.length === 1 ? "y is" : "ies are"} left out:
          </p>
          <ul className="feeds-left-out">
            {leftOut.map((l) => (
              <li key={l.id}>
                <a href={l.edit}>{l.address}</a>: {l.reasons.join(", ")}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
