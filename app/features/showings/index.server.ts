// The showings feature's public surface on the server (docs/behaviour.md §33).
export {
  type AgendaRow,
  type InboxShowing,
  inboxShowings,
  markShowing,
  showingAgenda,
} from "./agenda.server";
export {
  type BookingAnswer,
  scheduleUrlFor,
  showingsFor,
  submitBooking,
  withShowings,
} from "./book.server";
export {
  calendarFeedOf,
  calendarFeedPath,
  resetCalendarFeed,
  serveCalendarFeed,
} from "./calendar-feed.server";
export { showingsFeature } from "./feature.server";
export {
  checkHoursForm,
  getShowingHours,
  type HoursField,
  type HoursValues,
  hoursValues,
  saveShowingHours,
} from "./hours.server";
export {
  cancelShowing,
  confirmShowing,
  type ManagedShowing,
  managedShowing,
  moveShowingTo,
} from "./manage.server";
export { bookShowing, type Showing, showingsBetween } from "./showings.server";
