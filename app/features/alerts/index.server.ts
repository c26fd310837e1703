// The alerts feature's public surface on the server (docs/behaviour.md §31; decision 0069).
export { linkToken } from "./alert-link.server";
export { submitAlert } from "./alert-submit.server";
export {
  alertDigestJob,
  confirmAlert,
  createAlert,
  dueAlertsJob,
  eraseAlertsOf,
  type NewAlert,
  runSearchDigest,
  sendDueAlerts,
  unsubscribe,
} from "./alerts.server";
export { alertsFeature } from "./feature.server";
