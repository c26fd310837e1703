// A feed as a route's answer: the kept copy with its ETag (the page pipeline answers 304 to a
// reader that has it), public, revalidated on every use so that a change shows at once; and the
// fetch recorded for the 'Listing feeds' page (staff's own looks are not counted).
import type { AppLoadContext } from "react-router";
import { log } from "~/shared/logger.server";
import type { FeedName } from "./feed-parts";
import { recordFetch } from "./fetches.server";

export async function serveFeed(
  context: AppLoadContext,
  request: Request,
  name: FeedName,
): Promise<Response> {
  const feed = await context.feeds.feed(name);
  if (context.viewer.role === null) {
    try {
      await recordFetch(context.db, name, request.headers.get("user-agent"), feed.count);
    } catch (error) {
      // The feed is still served: a reader must not lose it to a failed note of its visit.
      log().warn({ err: error }, `Could not record a fetch of the ${name} feed`);
    }
  }
  return new Response(feed.body, {
    headers: {
      "Content-Type": feed.contentType,
      ETag: feed.etag,
      "Cache-Control": "public, no-cache",
    },
  });
}
