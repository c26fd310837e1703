// The automatic reply to every 'Ask about this listing' (docs/behaviour.md §33): the company's
// own text, edited in 'Site settings' as 'Automatic reply', with placeholders for the listing's
// facts and the office's contact. Only these placeholders exist; the text is checked when saved.

/** Each placeholder and what it becomes. */
export const AUTO_REPLY_PLACEHOLDERS = {
  address: "the listing's address",
  rent: "its monthly rent",
  bedrooms: "its bedrooms",
  bathrooms: "its bathrooms",
  available_from: "its 'Available from' date",
  schedule_link: "'Schedule a showing' and its link, when it has open hours (else nothing)",
  screening_criteria: "the 'Screening criteria'",
  office_phone: "the office's phone",
  office_email: "the office's e-mail",
  company_name: "the company's name",
} as const;

export type AutoReplyPlaceholder = keyof typeof AUTO_REPLY_PLACEHOLDERS;

export const AUTO_REPLY_LABEL = "Automatic reply";

/** The text a new site sends (the settings store "" for it). */
export const DEFAULT_AUTO_REPLY = `Hello,

Thank you for asking about {address}. Here is what we can tell you right away:

Rent: {rent}
Bedrooms: {bedrooms}
Bathrooms: {bathrooms}
Available from: {available_from}
{schedule_link}

Screening criteria: {screening_criteria}

We will get back to you soon. You can also reach us at {office_phone} or {office_email}.

{company_name}`;

/** At most this long, as the other long texts of the settings. */
export const AUTO_REPLY_MAX = 5000;

const PLACEHOLDER = /\{([^{}]*)\}/g;
const isPlaceholder = (name: string): name is AutoReplyPlaceholder =>
  Object.hasOwn(AUTO_REPLY_PLACEHOLDERS, name);

const allowed = () =>
  Object.keys(AUTO_REPLY_PLACEHOLDERS)
    .map((p) => `{${p}}`)
    .join(", ");

/** Why a text cannot be the automatic reply, or null when it can. */
export function autoReplyProblem(text: string): string | null {
  if (text.trim() === "") return `Write the ${AUTO_REPLY_LABEL.toLowerCase()}, or turn it off.`;
  for (const [, name] of text.matchAll(PLACEHOLDER)) {
    if (!isPlaceholder(name as string)) {
      return `The automatic reply has an unknown placeholder {${name}}. It may use ${allowed()}.`;
    }
  }
  if (/[{}]/.test(text.replace(PLACEHOLDER, ""))) {
    return `The automatic reply has a '{' or '}' that is no placeholder. It may use ${allowed()}.`;
  }
  return null;
}

/**
 * The reply's text with each placeholder filled in. A line left empty by a placeholder that
 * became nothing (no open hours: no schedule link) goes, and blank lines never pile up.
 */
export function renderAutoReply(
  text: string,
  values: Record<AutoReplyPlaceholder, string>,
): string {
  const lines = text.split("\n").flatMap((line) => {
    const filled = line.replace(PLACEHOLDER, (whole, name: string) =>
      isPlaceholder(name) ? values[name] : whole,
    );
    return filled.trim() === "" && line.trim() !== "" ? [] : [filled];
  });
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
