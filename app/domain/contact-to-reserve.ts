// The detail page's link for an available Vacation property without a reservation URL
// (messages.ts's addedMessages.contactToReserve): its own module, so that public pages do not
// load the whole message catalogue for it (docs/decisions/0077-csv-guards-and-light-public-pages.md).
export const CONTACT_TO_RESERVE = "Contact us to reserve";
