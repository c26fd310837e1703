// The showings feature's public surface in the browser (docs/behaviour.md §33).
export { BookingForm, type BookingFormAnswer, type BookingFormProps } from "./booking-form";
