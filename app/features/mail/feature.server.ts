import type { Db } from "~/shared/db.server";
import type { Feature } from "~/shared/feature.server";
import { eraseMailTo } from "./outbox.server";

/**
 * The outbox (docs/architecture.md, "The feature contract"). Its worker is started by the
 * server only with SMTP_URL, and opens the applications' sealed links: server/services.ts.
 */
export const mailFeature: Feature<{ db: Db }> = {
  name: "mail",
  tables: ["outbox"],
  // Every e-mail to the address or answering it; e-mail is not counted as the person's items.
  erasePerson: async ({ db }, email) => {
    await eraseMailTo(db, email);
    return 0;
  },
};
