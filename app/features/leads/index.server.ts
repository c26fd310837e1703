export { type Answer, type AnswerResult, answerLead } from "./answer.server";
export { leadsFeature } from "./feature.server";
export {
  allLeads,
  countNewLeads,
  eraseLeadsOf,
  type Lead,
  type LeadEvent,
  type LeadFilter,
  leadEvents,
  leadIsWithin,
  leadListings,
  listLeads,
  medianFirstReply,
  purgeClosedLeads,
  saveLeadNote,
  setLeadStatus,
  statusLabel,
} from "./leads.server";
export { leadPurgeJob } from "./purge.server";
export {
  type InquiryListing,
  type InquiryResult,
  leadMailOf,
  submitInquiry,
} from "./submit.server";
