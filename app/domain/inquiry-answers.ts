// Staff's answers from the inbox (docs/behaviour.md §27): labels, messages and
// the showing's length. Apart from inquiry.ts, whose labels the public pages' form carries.
import { INQUIRY_LIMITS } from "./inquiry";

/** 'Reply' to any item; 'Confirm showing' and 'Decline' for a showing request (the labels). */
export const ANSWER_LABELS = {
  reply: "Reply",
  replyText: "Your reply",
  confirm: "Confirm showing",
  showingTime: "Showing time",
  anotherTime: "Another time",
  anotherTimeInput: "Date and time of the showing",
  confirmNote: "Note with the confirmation (optional)",
  decline: "Decline",
  thread: "Thread",
} as const;

export const ANSWER_ERRORS = {
  reply: "Write a reply.",
  tooLong: `The message must be at most ${INQUIRY_LIMITS.message} characters.`,
  // A NUL cannot be stored or sent (PostgreSQL's text refuses it).
  unsendable: "The message holds a character that cannot be sent. Remove it and try again.",
  time: "Choose a proposed time, or enter another date and time.",
  notShowing: "Only a showing request can be confirmed or declined.",
} as const;

/** How long a confirmed showing lasts in its calendar invitation. */
export const SHOWING_MINUTES = 30;
