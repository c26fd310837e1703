// What the site settings page and `npm run admin -- settings import` may store, checked once
// here for both (docs/behaviour.md §18).
import { z } from "zod";
import { AUTO_REPLY_MAX, autoReplyProblem } from "~/domain/auto-reply";
import { HttpError } from "~/shared/http-error.server";
import type { EditableSettings } from "./editable";

/** Control characters other than tab and line breaks (never part of typed text). */
const hasControl = (v: string) =>
  [...v].some((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return (code < 32 && ch !== "\t" && ch !== "\n" && ch !== "\r") || code === 127;
  });

const line = (label: string, max: number, required = true) =>
  z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} must be at most ${max} characters.`)
    .refine((v) => !hasControl(v) && !/[\r\n]/.test(v), `${label} must be one line of text.`)
    .refine((v) => !required || v.trim() !== "", `${label} is required.`)
    .transform((v) => v.trim());

const paragraphs = (label: string) =>
  z
    .array(
      z
        .string({ error: `${label} must be text.` })
        .max(5000, `${label}: a paragraph must be at most 5000 characters.`)
        .refine((v) => !hasControl(v), `${label} cannot contain control characters.`),
      { error: `${label} must be a list of paragraphs.` },
    )
    .max(20, `${label} can have at most 20 paragraphs.`)
    .transform((list) => list.map((p) => p.trim()).filter((p) => p !== ""))
    .refine((list) => list.length > 0, `${label} is required.`);

/** Text that may span lines (line breaks kept as \n, trimmed), or be empty. */
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} must be at most ${max} characters.`)
    .refine((v) => !hasControl(v), `${label} cannot contain control characters.`)
    .transform((v) => v.replace(/\r\n?/g, "\n").trim());

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const color = (label: string) =>
  line(label, 20).refine((v) => HEX_COLOR.test(v), `${label} must be a colour like #16325c.`);
const phone = (label: string, required: boolean) =>
  line(label, 40, required).refine(
    (v) => !v || /^[0-9+()\-. x]+$/i.test(v),
    `${label} may contain only digits, spaces and + ( ) - . x.`,
  );

/** Files exported before these fields existed lack them: absent means the defaults. */
type AddedLater = "office" | "brandColors" | "applicationFee" | "screeningCriteria" | "autoReply";
export type SettingsInput = Omit<EditableSettings, AddedLater> &
  Partial<Pick<EditableSettings, AddedLater>>;

export const settingsSchema: z.ZodType<SettingsInput, unknown> = z.object({
  name: line("Company name", 120),
  tagline: line("Tagline", 300, false),
  aboutUs: paragraphs("About Us"),
  founder: paragraphs("Founder"),
  services: z
    .array(
      z.object({
        title: line("A service's title", 120),
        text: line("A service's text", 1000, false),
      }),
      { error: "Services Provided must be a list." },
    )
    .max(30, "Services Provided can have at most 30 entries."),
  contacts: z
    .array(
      z.object({
        role: line("A contact's role", 120),
        name: line("A contact's name", 120),
        email: line("A contact's e-mail", 254).refine(
          (v) => EMAIL.test(v),
          "A contact's e-mail must be an e-mail address.",
        ),
        phone: line("A contact's phone", 40, false)
          .optional()
          .refine(
            (v) => !v || /^[0-9+()\-. x]+$/i.test(v),
            "A contact's phone may contain only digits, spaces and + ( ) - . x.",
          ),
      }),
      { error: "Contacts must be a list." },
    )
    .max(20, "Contacts can have at most 20 entries."),
  errorContactName: line("Support contact name", 120),
  office: z
    .object({
      phone: phone("The office's phone", true),
      email: line("The office's e-mail", 254).refine(
        (v) => EMAIL.test(v),
        "The office's e-mail must be an e-mail address.",
      ),
      address: line("The office's address", 300, false)
        .optional()
        .transform((v) => v || undefined),
      hours: line("The office's hours", 200, false)
        .optional()
        .transform((v) => v || undefined),
    })
    .optional(),
  brandColors: z
    .object({ primary: color("The primary colour"), accent: color("The accent colour") })
    .optional(),
  applicationFee: line("Application fee", 300, false).optional(),
  screeningCriteria: text("Screening criteria", 5000).optional(),
  // Checked when saved, on or off: a text kept while it is off is sent as it is once it is on.
  autoReply: z
    .object({
      enabled: z.boolean({ error: "The automatic reply must be on or off." }),
      text: text("The automatic reply", AUTO_REPLY_MAX),
    })
    .superRefine((v, ctx) => {
      const problem = autoReplyProblem(v.text);
      if (problem && (v.enabled || v.text !== ""))
        ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
});

/** Checks submitted settings: a 400 with the first problem, in the form's own words. */
export function parseSettings(raw: unknown): SettingsInput {
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message =
      issue?.code === "invalid_type" && issue.path.length > 0
        ? `The setting ${issue.path.join(".")} is missing or of the wrong kind.`
        : (issue?.message ?? "The settings are not valid.");
    throw new HttpError(400, message);
  }
  return parsed.data;
}

const featuredOrderSchema = z
  .array(
    z.object({
      collection: z.enum(["properties", "newConstruction"]),
      id: z.string().min(1).max(500),
    }),
  )
  .max(200);

/** The 'Featured listings' order sent with the settings (absent: unchanged). */
export function parseFeaturedOrder(raw: unknown) {
  if (raw === undefined) return undefined;
  const parsed = featuredOrderSchema.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, "The featured listings' order is not valid.");
  return parsed.data;
}
