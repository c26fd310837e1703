import type { AppLoadContext } from "react-router";
import type { Collection } from "~/domain/listing-kinds";
import { listSummaries } from "./queries.server";

export async function loadListingSummaries(context: AppLoadContext, collection?: Collection) {
  return { listings: await listSummaries(context.db, collection) };
}
