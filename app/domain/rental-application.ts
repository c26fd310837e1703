// The online rental application (docs/behaviour.md §32): its steps, every field declared once
// (label, kind, whether it is required, its limit), who fills which step, the statuses, and the
// check the server runs on each step. The spec's 'How to Apply' path (the PDF) stays as it is; this
// is beside it. Fair housing: no field asks about race, colour, religion, sex, national origin,
// disability or familial status (rental-application.test.ts reads every label for that).
import { APPLY_ONLINE } from "./apply-online";
import { CONTROL, EMAIL_PATTERN } from "./text-checks";

export { APPLY_PATH, CONTINUE_PATH } from "./apply-online";

export const APPLICATION_LABELS = {
  applyOnline: APPLY_ONLINE,
  back: "Back",
  next: "Next",
  saveLater: "Save and finish later",
  savedLater: (email: string) => `We sent a link to ${email} so you can finish later.`,
  savedNotSent: (email: string) =>
    `Your answers are saved, but we have sent as many e-mails to ${email} as we may for now, so no link went out. Bookmark this page to finish later.`,
  confirm: "I confirm the information is true and I agree to a background and credit check.",
  submit: "Submit application",
  received: "Application received",
  statusLink: "Your application's status",
  edit: "Edit",
  withdraw: "Withdraw and delete my application",
  areYouSure: "Are you sure?",
} as const;

export const APPLICATION_STEPS = [
  { id: "applicant", title: "Applicant" },
  { id: "residence", title: "Where you live now" },
  { id: "employment", title: "Employment and income" },
  { id: "references", title: "References" },
  { id: "adults", title: "Other adults" },
  { id: "documents", title: "Documents" },
  { id: "review", title: "Review and submit" },
] as const;
export type StepId = (typeof APPLICATION_STEPS)[number]["id"];

/** The steps another adult of the household fills in with their own link (item 4). */
export const CO_APPLICANT_STEPS: readonly StepId[] = [
  "applicant",
  "residence",
  "employment",
  "documents",
];

export function isStepId(value: unknown): value is StepId {
  return typeof value === "string" && APPLICATION_STEPS.some((s) => s.id === value);
}

type Kind = "text" | "email" | "tel" | "date" | "count" | "money" | "long-text";

export interface FieldSpec {
  name: string;
  label: string;
  kind: Kind;
  required: boolean;
  /** Characters. */
  max: number;
  /** For dates: must be before today (birth, 'since') or today or later (move-in). */
  when?: "past" | "future";
}

const f = (
  name: string,
  label: string,
  kind: Kind,
  required: boolean,
  when?: FieldSpec["when"],
): FieldSpec => ({
  name,
  label,
  kind,
  required,
  max: kind === "long-text" ? 2000 : kind === "email" ? 254 : 200,
  ...(when ? { when } : {}),
});

/** At most this many earlier addresses (the last three years), other adults, references. */
export const MAX_EARLIER_ADDRESSES = 3;
export const MAX_OTHER_ADULTS = 5;
export const REFERENCE_COUNT = 2;

/** A repeated group's fields are named `{group}.{index}.{field}` in forms and answers. */
export const repeated = (group: string, index: number, field: string) =>
  `${group}.${index}.${field}`;

const earlierAddress = (i: number) => [
  f(repeated("earlier", i, "address"), "Earlier address", "text", false),
  f(repeated("earlier", i, "from"), "From", "date", false, "past"),
  f(repeated("earlier", i, "to"), "To", "date", false, "past"),
];
const reference = (i: number) => [
  f(repeated("reference", i, "name"), `Reference ${i + 1}: name`, "text", true),
  f(repeated("reference", i, "phone"), `Reference ${i + 1}: phone`, "tel", true),
  f(
    repeated("reference", i, "relationship"),
    `Reference ${i + 1}: how you know them`,
    "text",
    false,
  ),
];
const adult = (i: number) => [
  f(repeated("adult", i, "name"), `Adult ${i + 1}: name`, "text", false),
  f(repeated("adult", i, "email"), `Adult ${i + 1}: e-mail`, "email", false),
];

/** Every field of every step but 'Documents' and 'Review and submit', declared once. */
export const STEP_FIELDS: Record<Exclude<StepId, "documents" | "review">, FieldSpec[]> = {
  applicant: [
    f("fullName", "Full name", "text", true),
    f("email", "E-mail", "email", true),
    f("phone", "Phone", "tel", true),
    f("dateOfBirth", "Date of birth", "date", true, "past"),
    f("moveIn", "Desired move-in date", "date", true, "future"),
    f("occupants", "Number of occupants", "count", true),
  ],
  residence: [
    f("address", "Address", "text", true),
    f("since", "Since when", "date", true, "past"),
    f("rent", "Monthly rent", "money", false),
    f("landlordName", "Landlord's name", "text", false),
    f("landlordPhone", "Landlord's phone", "tel", false),
    ...Array.from({ length: MAX_EARLIER_ADDRESSES }, (_, i) => earlierAddress(i)).flat(),
  ],
  employment: [
    f("employer", "Employer", "text", false),
    f("position", "Position", "text", false),
    f("employedSince", "Since when", "date", false, "past"),
    f("monthlyIncome", "Monthly income", "money", true),
    f("otherIncome", "Other income", "long-text", false),
  ],
  references: Array.from({ length: REFERENCE_COUNT }, (_, i) => reference(i)).flat(),
  adults: Array.from({ length: MAX_OTHER_ADULTS }, (_, i) => adult(i)).flat(),
};

export const APPLICATION_ERRORS = {
  required: (label: string) => `Fill in '${label}'.`,
  email: "Enter a valid e-mail address.",
  date: "Enter a date, such as 2027-03-01.",
  past: "Enter a date before today.",
  future: "Enter today's date or a later one.",
  count: "Enter a whole number from 1 to 20.",
  money: "Enter an amount in dollars, such as 1850.",
  tel: "Enter a phone number, such as 703-555-0100.",
  tooLong: (max: number) => `Use at most ${max} characters.`,
  control: "Remove the unusual characters.",
  adultPair: "Enter both the adult's name and e-mail address.",
  adultIsYou: "Enter the other adults here; you are the applicant.",
  confirm: "Tick the box to confirm before you submit.",
} as const;

/** An application's answers: every field's text as typed, by name. */
export type Answers = Record<string, string>;
export type FieldErrors = Record<string, string>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date as a date input sends it (YYYY-MM-DD). */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function fieldError(spec: FieldSpec, value: string, today: string): string | undefined {
  if (CONTROL.test(value)) return APPLICATION_ERRORS.control;
  if (value.length > spec.max) return APPLICATION_ERRORS.tooLong(spec.max);
  const text = value.trim();
  if (text === "") return spec.required ? APPLICATION_ERRORS.required(spec.label) : undefined;
  switch (spec.kind) {
    case "email":
      return EMAIL_PATTERN.test(text) ? undefined : APPLICATION_ERRORS.email;
    case "date":
      if (!isIsoDate(text)) return APPLICATION_ERRORS.date;
      if (spec.when === "past" && text >= today) return APPLICATION_ERRORS.past;
      if (spec.when === "future" && text < today) return APPLICATION_ERRORS.future;
      return undefined;
    case "count": {
      const n = Number(text);
      return /^\d{1,2}$/.test(text) && n >= 1 && n <= 20 ? undefined : APPLICATION_ERRORS.count;
    }
    case "money":
      return /^\$?\s?\d{1,3}(,?\d{3})*(\.\d{2})?$/.test(text)
        ? undefined
        : APPLICATION_ERRORS.money;
    case "tel":
      return (text.match(/\d/g) ?? []).length >= 7 && /^[\d\s()+.\-x]+$/i.test(text)
        ? undefined
        : APPLICATION_ERRORS.tel;
    default:
      return undefined;
  }
}

/**
 * Checks one step's answers (`today`: YYYY-MM-DD, the server's clock). Refused fields get their
 * message; nothing is changed, so what was typed is kept as typed.
 */
export function checkStep(step: StepId, answers: Answers, today: string): FieldErrors {
  const errors: FieldErrors = {};
  if (step === "documents" || step === "review") return errors;
  for (const spec of STEP_FIELDS[step]) {
    const error = fieldError(spec, answers[spec.name] ?? "", today);
    if (error) errors[spec.name] = error;
  }
  if (step === "adults") {
    const own = (answers.email ?? "").trim().toLowerCase();
    for (let i = 0; i < MAX_OTHER_ADULTS; i++) {
      const name = (answers[repeated("adult", i, "name")] ?? "").trim();
      const emailField = repeated("adult", i, "email");
      const email = (answers[emailField] ?? "").trim();
      if ((name === "") !== (email === "")) {
        errors[name === "" ? repeated("adult", i, "name") : emailField] ??=
          APPLICATION_ERRORS.adultPair;
      } else if (own !== "" && email.toLowerCase() === own) {
        errors[emailField] ??= APPLICATION_ERRORS.adultIsYou;
      }
    }
  }
  return errors;
}

/** The other adults named in the answers, in order. */
export function otherAdults(answers: Answers): { name: string; email: string }[] {
  return Array.from({ length: MAX_OTHER_ADULTS }, (_, i) => ({
    name: (answers[repeated("adult", i, "name")] ?? "").trim(),
    email: (answers[repeated("adult", i, "email")] ?? "").trim(),
  })).filter((a) => a.name !== "" && a.email !== "");
}

/** Keeps only the declared fields' answers (a form may carry anything). */
export function answersFrom(step: StepId, read: (name: string) => unknown): Answers {
  const answers: Answers = {};
  if (step === "documents" || step === "review") return answers;
  for (const spec of STEP_FIELDS[step]) {
    const value = read(spec.name);
    answers[spec.name] = typeof value === "string" ? value : "";
  }
  return answers;
}

/** Documents (item 2): JPEG, PNG or PDF, up to 10 files of 10 MB each. */
export const DOCUMENT_LIMITS = {
  files: 10,
  bytes: 10 * 1024 * 1024,
  types: ["image/jpeg", "image/png", "application/pdf"],
} as const;
export const DOCUMENT_KINDS = {
  id: "Photo ID",
  income: "Proof of income",
  other: "Other",
} as const;

export const APPLICATION_STATUSES = {
  draft: "Draft",
  received: "Received",
  "under-review": "Under review",
  approved: "Approved",
  declined: "Declined",
  withdrawn: "Withdrawn",
} as const;
export type ApplicationStatus = keyof typeof APPLICATION_STATUSES;
/** What staff may set (item 6); each decision e-mails the applicant. */
export const STAFF_STATUSES: readonly ApplicationStatus[] = [
  "received",
  "under-review",
  "approved",
  "declined",
];
export const DECISIONS: readonly ApplicationStatus[] = ["approved", "declined"];

/** A private link lives this long (item 3); drafts are erased this long after their last change. */
export const RESUME_LINK_DAYS = 30;
export const DRAFT_RETENTION_DAYS = 30;
