import type { Feature } from "~/shared/feature.server";

/** The listing feeds (docs/architecture.md, "The feature contract"). */
export const feedsFeature: Feature<unknown> = {
  name: "feeds",
  tables: ["feed_fetches"],
};
