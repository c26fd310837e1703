// The online applications feature's surface on the server (docs/behaviour.md §32;
// docs/decisions/0071-online-applications-storage.md).

export { buildApplicationFilePdf } from "./application-file-pdf.server";
export {
  type ApplicationServices,
  createApplicationServices,
} from "./application-services.server";
export {
  addDocument,
  completeApplicant,
  DOCUMENT_REFUSALS,
  eraseApplicationsOf,
  householdProgress,
  listOwnDocuments,
  type OpenedApplication,
  type OwnDocument,
  openApplication,
  removeDocument,
  saveAnswers,
  startApplication,
  submitApplication,
  withdrawApplication,
} from "./applications.server";
export {
  applyAction,
  applyLoader,
  continueAction,
  continueLoader,
  UPLOAD_REQUEST_BYTES,
} from "./apply.server";
export { DATA_KEY_MISSING } from "./data-key.server";
export { DOCUMENT_ERRORS, DocumentRejectedError, DocumentVault } from "./documents.server";
export { applicationsFeature } from "./feature.server";
export { removeQueued } from "./file-deletions.server";
export { applicationRef } from "./names.server";
export { linkCollector, openOutboxLinks } from "./outbox-links.server";
export { createPrivateBackend, DOCUMENTS_PREFIX } from "./private-backend.server";
export { applicationRetentionJob, retentionPass } from "./retention-job.server";
export { type DataKeys, deriveDataKeys, type KeyMaterial, seal, unseal } from "./seal.server";
export {
  type ApplicationMail,
  type ApplicationRecord,
  type ApplicationSummary,
  applicationIsWithin,
  listApplications,
  outsideListings,
  readApplication,
  readDocument,
  saveApplicationNote,
  sealClearNotes,
  setApplicationStatus,
} from "./staff.server";
