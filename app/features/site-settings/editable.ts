import { DEFAULT_AUTO_REPLY } from "~/domain/auto-reply";
import type { BrandColors, CompanyContent, ContactPerson, OfficeContact } from "~/domain/company";

/** The fields the site settings page edits (docs/behaviour.md §18); files travel beside them. */
export interface EditableSettings {
  name: string;
  tagline: string;
  aboutUs: string[];
  founder: string[];
  services: { title: string; text: string }[];
  contacts: ContactPerson[];
  errorContactName: string;
  /** The office's phone, e-mail, address and hours (footer, contact and detail pages). */
  office: OfficeContact;
  /** The brand colours (`--brand-primary`, `--brand-accent`; decision 0046). */
  brandColors: BrandColors;
  /**
   * 'Application fee' (the content's `application.fee`; may be empty). Not `application`: in the
   * page's request that name is the rental application PDF's "keep" | "generated".
   */
  applicationFee: string;
  /** 'Screening criteria' (the content's `application.screeningCriteria`; may be empty). */
  screeningCriteria: string;
  /** 'Automatic reply' (docs/behaviour.md §33): on or off, and its text. */
  autoReply: { enabled: boolean; text: string };
}

/** The editable fields of some content (what the form starts with, what the CLI exports). */
export function editableOf(content: CompanyContent): EditableSettings {
  return {
    name: content.name,
    tagline: content.tagline,
    aboutUs: [...content.about.aboutUs],
    founder: [...content.about.founder],
    services: content.about.services.map(({ title, text }) => ({ title, text })),
    contacts: content.contacts.map(({ role, name, email, phone }) =>
      phone ? { role, name, email, phone } : { role, name, email },
    ),
    errorContactName: content.errorContactName,
    office: { ...content.office },
    brandColors: { ...content.brandColors },
    applicationFee: content.application.fee,
    screeningCriteria: content.application.screeningCriteria,
    autoReply: {
      enabled: content.autoReply.enabled,
      text: content.autoReply.text || DEFAULT_AUTO_REPLY,
    },
  };
}
