import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { alertDigestJob, dueAlertsJob, eraseAlertsOf } from "./alerts.server";

/** 'Notify me' and 'E-mail me new matches' (docs/architecture.md, "The feature contract"). */
export const alertsFeature: Feature<{ db: Db; env: Pick<Env, "leads" | "publicUrl"> }> = {
  name: "alerts",
  tables: ["listing_alerts", "alert_unsubscribe_tokens"],
  // Limited as inquiries are, on a count of their own.
  limits: [{ name: "alert", perHour: ({ env }) => env.leads.inquiriesPerHour }],
  // 'Notify me' e-mails as soon as a property is available; the daily e-mail of new matches
  // (docs/behaviour.md §31).
  jobs: ({ db, env }) => [
    dueAlertsJob(db, { publicUrl: env.publicUrl }),
    alertDigestJob(db, { publicUrl: env.publicUrl }),
  ],
  // The address's alerts, with the alert e-mails still waiting.
  erasePerson: ({ db }, email) => db.transaction((tx) => eraseAlertsOf(tx, email)),
};
