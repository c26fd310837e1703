// What the online application's pages show (docs/behaviour.md §32): the loaders' views and the
// actions' answers, shared by the server (apply.server.ts) and the screens (application-pages.tsx).
import {
  type Answers,
  APPLY_PATH,
  type ApplicationStatus,
  CONTINUE_PATH,
  type FieldErrors,
  type StepId,
} from "~/domain/rental-application";

export { APPLY_PATH, CONTINUE_PATH };

/** Messages of the application pages beyond the labels. */
export const APPLY_MESSAGES = {
  gone: "This link is not valid or has expired. Start a new application, or ask us for help.",
  pickListing: "Choose the property you are applying for.",
  emailFirst: "Enter a valid e-mail address on the first step, so we can send you the link.",
  stepIncomplete: (title: string) => `Some answers in '${title}' need attention.`,
  chooseFile: "Choose a file to upload.",
  noDocuments: "No documents were sent with this application.",
  noDocumentsOwn: "You have not sent any documents with your part of the application.",
  chooseKind: "Choose what the document is.",
  uploadFailed: "The file could not be sent. Choose it again, or press 'Upload'.",
  closed: "This application can no longer be changed.",
} as const;

/** The private link of an applicant, at a step or with a flag. */
export function continueUrl(token: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({ token, ...extra });
  return `${CONTINUE_PATH}?${query}`;
}

export interface OwnDocumentView {
  id: number;
  kind: "id" | "income" | "other";
  name: string;
  contentType: string;
  bytes: number;
}

export interface ListingChoice {
  value: string;
  address: string;
}

export type ApplyView =
  | { kind: "closed"; message: string }
  | { kind: "gone"; message: string }
  | { kind: "withdrawn"; statusAt: string }
  | { kind: "received"; token: string; coApplicant: boolean }
  | {
      kind: "status";
      token: string;
      coApplicant: boolean;
      status: ApplicationStatus;
      statusAt: string;
      address: string | null;
      household: { name: string; done: boolean; position: number }[];
      confirmWithdraw: boolean;
    }
  | {
      kind: "steps";
      token: string | null;
      step: StepId;
      steps: StepId[];
      /** Another adult's part (their own 'Review' words), not the main applicant's. */
      coApplicant: boolean;
      values: Answers;
      listing: { value: string; address: string } | null;
      choices: ListingChoice[];
      documents: OwnDocumentView[];
      fee: string;
      criteria: string;
      saved: string | null;
    };

/** What an action answers when it does not redirect: errors beside fields, the typed values. */
export interface ApplyAnswer {
  errors: FieldErrors;
  values?: Answers;
  listing?: string;
}
