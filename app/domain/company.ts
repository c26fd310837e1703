// The company's own content in one place. A different leasing company edits this file (and
// public/logo.svg); everything the site shows about the company comes from here.

export interface ContactPerson {
  role: string;
  name: string;
  email: string;
  phone?: string;
}

/** Brand colours as CSS colours; the root layout emits them as custom properties on :root. */
export interface BrandColors {
  /** Buttons, links, headings, the navbar's accent: white text must read on it (4.5:1). */
  primary: string;
  /** Decoration beside the primary colour (rules, badges); primary-coloured text reads on it. */
  accent: string;
}

/** How visitors reach the office: footer, contact page, detail pages. */
export interface OfficeContact {
  phone: string;
  email: string;
  /** Shown in the footer and on the contact page when present. */
  address?: string;
  /** Shown on the contact page when present. */
  hours?: string;
}

export interface CompanyContent {
  name: string;
  shortName: string;
  tagline: string;
  logo: { src: string; alt: string; width: number; height: number };
  /** Exact addresses (docs/behaviour.md §9); note the trailing space on the third. */
  featuredAddresses: readonly string[];
  /** Named in every error dialog's footer. */
  errorContactName: string;
  about: {
    aboutUs: string[];
    founder: string[];
    services: { title: string; text: string }[];
  };
  contacts: ContactPerson[];
  application: {
    fileName: string;
    steps: string[];
    /**
     * 'Application fee' (docs/behaviour.md §18): one line shown on the first step of the online
     * application, such as "$45 per adult, paid when we review your application." Nothing is
     * paid online. Empty: the application shows nothing for it.
     */
    fee: string;
    /**
     * 'Screening criteria': the longer text shown before the online application is submitted
     * (line breaks kept). Empty: the application shows nothing for it.
     */
    screeningCriteria: string;
  };
  /** Navy and gold by default (docs/decisions/0046-design-tokens-from-company-content.md). */
  brandColors: BrandColors;
  office: OfficeContact;
  /**
   * 'Automatic reply' to every question about a listing (docs/behaviour.md §33; the text's
   * placeholders: app/domain/auto-reply.ts). Text "": the default wording. Never sent to pages.
   */
  autoReply: { enabled: boolean; text: string };
}

export const company: CompanyContent = {
  name: "Northern Virginia Family Leasing",
  shortName: "NoVA Family Leasing",
  tagline: "Residential, commercial and vacation rentals. No fees, no commissions.",
  logo: { src: "/logo.svg", alt: "Northern Virginia Family Leasing", width: 160, height: 96 },
  featuredAddresses: [
    "3233 4th Street N",
    "409 N Jackson Street",
    "3131 Draper Drive Fairfax, VA ",
  ],
  errorContactName: "Daniel Reyes",
  about: {
    aboutUs: [
      "We are a family-owned property management and leasing company, founded in 2017, with over 30 years of experience in Northern Virginia.",
      "We manage 16 single-family homes in North Arlington, five commercial buildings in Fairfax and two vacation rentals in Corolla, NC, the latter run together with a partner rental agency.",
      "We also acquire properties as-is, with no fees and no commissions.",
    ],
    founder: [
      "Our founder has spent more than three decades buying, renovating and renting homes and commercial space across Northern Virginia, and started the company in 2017 to put that experience to work for tenants and sellers alike.",
    ],
    services: [
      { title: "Residential Leasing", text: "3 to 5 bedroom homes." },
      { title: "Commercial Leasing", text: "Office and retail space in Fairfax." },
      {
        title: "Vacation Rentals",
        text: "Beach houses in Corolla, NC, with our partner rental agency.",
      },
      {
        title: "Real Estate Acquisitions",
        text: "We buy properties as-is, with no fees and no commissions.",
      },
    ],
  },
  contacts: [
    {
      role: "President",
      name: "Robert Whitfield",
      email: "robert@example.com",
      phone: "703-555-0141",
    },
    { role: "Vice President", name: "Linda Whitfield", email: "linda@example.com" },
    {
      role: "Property Manager",
      name: "Daniel Reyes",
      email: "daniel@example.com",
      phone: "703-555-0176",
    },
  ],
  application: {
    fileName: "rental-application.pdf",
    steps: [
      "Download the rental application form.",
      "Fill it in with accurate information.",
      "Submit it to the landlord or property manager.",
    ],
    fee: "$45 per adult, paid when we review your application.",
    screeningCriteria:
      "We look for a household income of about three times the monthly rent, a background and credit check, and references from previous landlords. We consider every applicant by the same criteria, in line with fair-housing law.",
  },
  brandColors: { primary: "#16325c", accent: "#c9a227" },
  office: {
    phone: "703-555-0100",
    email: "office@example.com",
    address: "1000 N Example Boulevard, Arlington, VA 22201",
    hours: "Monday to Friday, 9 am to 5 pm",
  },
  autoReply: { enabled: true, text: "" },
};

/**
 * What the staff stored on the site settings page or with `npm run admin -- settings import`
 * (docs/behaviour.md §18): any part of the content, plus the uploaded files. Only what differs
 * from the defaults above is stored.
 */
export type StoredContent = DeepPartial<CompanyContent> & {
  /** The company's own rental application PDF (a stored-file URL); absent: the generated form. */
  applicationPdf?: string | null;
  /** The featured listings in order; absent: those at `featuredAddresses` (docs/behaviour.md §19). */
  featured?: { collection: string; id: string }[];
};

type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** The content a page shows: the stored values over the defaults (lists replace, objects merge). */
export type SiteContent = CompanyContent & { applicationPdf: string | null };

/**
 * What every page's layout, dialogs and listing pages read: the company content without the
 * About page's text and the default featured addresses, which only /about and the server use.
 * The root loader sends this with every page (docs/behaviour.md §18).
 */
export type LayoutContent = Omit<SiteContent, "about" | "featuredAddresses" | "autoReply">;

export function layoutContent(content: SiteContent): LayoutContent {
  const { about: _about, featuredAddresses: _featured, autoReply: _reply, ...layout } = content;
  return layout;
}

export function mergeContent(
  defaults: CompanyContent,
  stored: StoredContent | null | undefined,
): SiteContent {
  const { featured: _featured, ...content } = stored ?? {};
  const merged = deepMerge(defaults, content) as CompanyContent & { applicationPdf?: unknown };
  return {
    ...merged,
    applicationPdf: typeof merged.applicationPdf === "string" ? merged.applicationPdf : null,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = deepMerge(base[key], value);
  return out;
}

/** The footer every product error dialog carries (docs/behaviour.md §8). */
export function errorFooter(content: Pick<CompanyContent, "errorContactName"> = company): string {
  return `If the problem persists, show this message to ${content.errorContactName}.`;
}
