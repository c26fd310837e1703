import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import { AUTO_REPLY_LABEL, AUTO_REPLY_PLACEHOLDERS } from "~/domain/auto-reply";
import type { CompanyContent } from "~/domain/company";
import { type Collection, KINDS, listingPath } from "~/domain/listing-kinds";
import { addedMessages, dialogDurations, successTitles } from "~/domain/messages";
import { useDialogs } from "~/features/dialogs";
import type { EditableSettings } from "~/features/site-settings";
import { TextField } from "~/ui";
import { apiRequest } from "./api-client";
import { BusyLabel, UploadProgress } from "./form-parts";
import { ListEditor } from "./list-editor";

export interface SiteSettingsData {
  settings: EditableSettings;
  logo: CompanyContent["logo"];
  /** Whether the logo is the default one (nothing uploaded). */
  defaultLogo: string;
  applicationPdf: string | null;
  /** The home page's featured listings, in order (docs/behaviour.md §19). */
  featured: { collection: Collection; id: string; address: string }[];
}

/** Paragraphs are edited as one text, separated by blank lines. */
const toText = (paragraphs: string[]) => paragraphs.join("\n\n");
const toParagraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");

/** /admin/site: the company's content, logo and application form (docs/behaviour.md §18). */
export function SiteSettingsForm({ initial }: { initial: SiteSettingsData }) {
  const id = useId();
  const dialogs = useDialogs();
  const { revalidate } = useRevalidator();
  const [current, setCurrent] = useState(initial);
  const [fields, setFields] = useState(() => ({
    ...initial.settings,
    aboutUs: toText(initial.settings.aboutUs),
    founder: toText(initial.settings.founder),
  }));
  const [logoFile, setLogoFile] = useState<File | null>(null);
  const [logoDefault, setLogoDefault] = useState(false);
  const [pdfFile, setPdfFile] = useState<File | null>(null);
  const [pdfGenerated, setPdfGenerated] = useState(false);
  const [featured, setFeatured] = useState(initial.featured);
  const [progress, setProgress] = useState<number | null>(null);
  const [fileInputs, setFileInputs] = useState(0);
  const saving = progress !== null;
  const set = <K extends keyof typeof fields>(key: K, value: (typeof fields)[K]) =>
    setFields((f) => ({ ...f, [key]: value }));

  const line = (key: "name" | "tagline" | "errorContactName", label: string) => (
    <div>
      <TextField
        id={`${id}-${key}`}
        label={label}
        value={fields[key]}
        onChange={(e) => set(key, e.currentTarget.value)}
        disabled={saving}
      />
    </div>
  );
  const paragraphs = (key: "aboutUs" | "founder", label: string) => (
    <div>
      <TextField
        id={`${id}-${key}`}
        label={label}
        rows={6}
        value={fields[key]}
        onChange={(e) => set(key, e.currentTarget.value)}
        disabled={saving}
        aria-describedby={`${id}-paragraphs`}
      />
    </div>
  );

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const body = new FormData();
    const data = {
      ...fields,
      aboutUs: toParagraphs(fields.aboutUs),
      founder: toParagraphs(fields.founder),
      contacts: fields.contacts.map((c) => (c.phone?.trim() ? c : { ...c, phone: undefined })),
      office: {
        ...fields.office,
        address: fields.office.address?.trim() || undefined,
        hours: fields.office.hours?.trim() || undefined,
      },
      logo: logoDefault ? "default" : "keep",
      application: pdfGenerated ? "generated" : "keep",
      featured: featured.map(({ collection, id }) => ({ collection, id })),
    };
    body.append("data", JSON.stringify(data));
    if (logoFile && !logoDefault) body.append("logo", logoFile, logoFile.name);
    if (pdfFile && !pdfGenerated) body.append("application", pdfFile, pdfFile.name);
    setProgress(0);
    try {
      const saved = await apiRequest<Omit<SiteSettingsData, "defaultLogo">>(
        "PUT",
        "/api/site",
        body,
        setProgress,
      );
      setCurrent((c) => ({ ...c, ...saved }));
      setFeatured(saved.featured);
      setFields({
        ...saved.settings,
        aboutUs: toText(saved.settings.aboutUs),
        founder: toText(saved.settings.founder),
      });
      setLogoFile(null);
      setLogoDefault(false);
      setPdfFile(null);
      setPdfGenerated(false);
      setFileInputs((n) => n + 1); // empties the file pickers
      setProgress(null);
      void revalidate(); // the navbar and footer of this page show the new content too
      await dialogs.success(successTitles.saved, dialogDurations.saved);
    } catch (error) {
      setProgress(null);
      await dialogs.failed(error, addedMessages.settingsSaveFailed);
    }
  }

  const customLogo = current.logo.src !== current.defaultLogo;
  return (
    <form className="admin-form" onSubmit={submit} aria-busy={saving}>
      {line("name", "Company name")}
      {line("tagline", "Tagline")}
      <div>
        <label className="form-label" htmlFor={`${id}-logo`}>
          Logo
        </label>
        <p className="logo-preview">
          <img
            src={current.logo.src}
            alt={`Current logo${customLogo ? "" : " (the default)"}`}
            width={80}
            height={Math.round((80 * current.logo.height) / current.logo.width)}
          />
        </p>
        <input
          key={`logo-${fileInputs}`}
          id={`${id}-logo`}
          className="form-control"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif,image/avif,image/heic"
          disabled={saving || logoDefault}
          aria-describedby={`${id}-logo-note`}
          onChange={(e) => setLogoFile(e.currentTarget.files?.[0] ?? null)}
        />
        <p id={`${id}-logo-note`} className="form-note">
          A photo format (PNG, JPEG, WebP, AVIF, HEIC or GIF); SVG is not accepted. It is shown in
          the navbar and on the home page.
        </p>
        {customLogo ? (
          <div className="form-check">
            <input
              id={`${id}-logo-default`}
              type="checkbox"
              checked={logoDefault}
              disabled={saving}
              onChange={(e) => setLogoDefault(e.currentTarget.checked)}
            />
            <label htmlFor={`${id}-logo-default`}>Use the default logo</label>
          </div>
        ) : null}
      </div>
      <p id={`${id}-paragraphs`} className="form-note">
        About Us and Founder: separate paragraphs with an empty line.
      </p>
      {paragraphs("aboutUs", "About Us")}
      {paragraphs("founder", "Founder")}
      <ListEditor
        legend="Services Provided"
        noun="Service"
        items={fields.services}
        onChange={(services) => set("services", services)}
        empty={() => ({ title: "", text: "" })}
        disabled={saving}
        renderItem={(service, update, i) => (
          <div className="row">
            <div>
              <TextField
                id={`${id}-service-${i}-title`}
                label="Title"
                value={service.title}
                disabled={saving}
                onChange={(e) => update({ ...service, title: e.currentTarget.value })}
              />
            </div>
            <div>
              <TextField
                id={`${id}-service-${i}-text`}
                label="Text"
                value={service.text}
                disabled={saving}
                onChange={(e) => update({ ...service, text: e.currentTarget.value })}
              />
            </div>
          </div>
        )}
      />
      <ListEditor
        legend="Contacts"
        noun="Contact"
        items={fields.contacts}
        onChange={(contacts) => set("contacts", contacts)}
        empty={() => ({ role: "", name: "", email: "", phone: "" })}
        disabled={saving}
        renderItem={(contact, update, i) => (
          <div className="row">
            {(
              [
                ["role", "Role", "text"],
                ["name", "Name", "text"],
                ["email", "E-mail", "email"],
                ["phone", "Phone (optional)", "tel"],
              ] as const
            ).map(([key, label, type]) => (
              <div key={key}>
                <TextField
                  id={`${id}-contact-${i}-${key}`}
                  label={label}
                  type={type}
                  value={contact[key] ?? ""}
                  disabled={saving}
                  onChange={(e) => update({ ...contact, [key]: e.currentTarget.value })}
                />
              </div>
            ))}
          </div>
        )}
      />
      {line("errorContactName", "Support contact name")}
      <fieldset>
        <legend className="form-label">Office</legend>
        {(
          [
            ["phone", "Phone", "tel"],
            ["email", "E-mail", "email"],
            ["address", "Address (optional)", "text"],
            ["hours", "Opening hours (optional)", "text"],
          ] as const
        ).map(([key, label, type]) => (
          <div key={key}>
            <TextField
              id={`${id}-office-${key}`}
              label={label}
              type={type}
              value={fields.office[key] ?? ""}
              disabled={saving}
              onChange={(e) => set("office", { ...fields.office, [key]: e.currentTarget.value })}
            />
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend className="form-label">Brand colours</legend>
        {(
          [
            ["primary", "Primary colour (buttons, links, headings)"],
            ["accent", "Accent colour (rules, badges)"],
          ] as const
        ).map(([key, label]) => (
          <div key={key}>
            <label className="form-label" htmlFor={`${id}-brand-${key}`}>
              {label}
            </label>
            <input
              id={`${id}-brand-${key}`}
              className="form-control form-control-color"
              type="color"
              value={fields.brandColors[key]}
              disabled={saving}
              onChange={(e) =>
                set("brandColors", { ...fields.brandColors, [key]: e.currentTarget.value })
              }
            />
          </div>
        ))}
      </fieldset>
      <FeaturedOrder items={featured} onChange={setFeatured} disabled={saving} />
      <div>
        <label className="form-label" htmlFor={`${id}-application`}>
          Rental application form
        </label>
        <p className="form-note" id={`${id}-application-note`}>
          {current.applicationPdf ? (
            <>
              The company's own PDF is in use (
              <a href="/rental-application.pdf" target="_blank" rel="noreferrer">
                see it
              </a>
              ). Upload another PDF to replace it.
            </>
          ) : (
            <>
              The generated fillable form is in use (
              <a href="/rental-application.pdf" target="_blank" rel="noreferrer">
                see it
              </a>
              ). Upload the company's own PDF to use it instead.
            </>
          )}
        </p>
        <input
          key={`pdf-${fileInputs}`}
          id={`${id}-application`}
          className="form-control"
          type="file"
          accept="application/pdf,.pdf"
          disabled={saving || pdfGenerated}
          aria-describedby={`${id}-application-note`}
          onChange={(e) => setPdfFile(e.currentTarget.files?.[0] ?? null)}
        />
        {current.applicationPdf ? (
          <div className="form-check">
            <input
              id={`${id}-application-generated`}
              type="checkbox"
              checked={pdfGenerated}
              disabled={saving}
              onChange={(e) => setPdfGenerated(e.currentTarget.checked)}
            />
            <label htmlFor={`${id}-application-generated`}>Use the generated form</label>
          </div>
        ) : null}
      </div>
      <div>
        <TextField
          id={`${id}-application-fee`}
          label="Application fee"
          value={fields.applicationFee}
          disabled={saving}
          aria-describedby={`${id}-application-fee-note`}
          onChange={(e) => set("applicationFee", e.currentTarget.value)}
        />
        <p id={`${id}-application-fee-note`} className="form-note">
          Shown on the first step of the online application, for example "$45 per adult, paid when
          we review your application." Nothing is paid online. Leave it empty to show nothing.
        </p>
      </div>
      <div>
        <TextField
          id={`${id}-screening-criteria`}
          label="Screening criteria"
          rows={5}
          value={fields.screeningCriteria}
          disabled={saving}
          aria-describedby={`${id}-screening-criteria-note`}
          onChange={(e) => set("screeningCriteria", e.currentTarget.value)}
        />
        <p id={`${id}-screening-criteria-note`} className="form-note">
          Shown before the online application is submitted. Leave it empty to show nothing.
        </p>
      </div>
      <fieldset className="auto-reply">
        <legend>{AUTO_REPLY_LABEL}</legend>
        <div className="form-check">
          <input
            id={`${id}-auto-reply-on`}
            type="checkbox"
            className="form-check-input"
            checked={fields.autoReply.enabled}
            disabled={saving}
            onChange={(e) =>
              set("autoReply", { ...fields.autoReply, enabled: e.currentTarget.checked })
            }
          />
          <label className="form-check-label" htmlFor={`${id}-auto-reply-on`}>
            Send it at once to everyone who asks about a listing
          </label>
        </div>
        <TextField
          id={`${id}-auto-reply`}
          label={AUTO_REPLY_LABEL}
          rows={14}
          value={fields.autoReply.text}
          disabled={saving}
          aria-describedby={`${id}-auto-reply-note`}
          onChange={(e) => set("autoReply", { ...fields.autoReply, text: e.currentTarget.value })}
        />
        <div id={`${id}-auto-reply-note`} className="form-note">
          In your own words; the renter's message is never repeated. It may use:
          <ul>
            {Object.entries(AUTO_REPLY_PLACEHOLDERS).map(([name, what]) => (
              <li key={name}>
                <code>{`{${name}}`}</code>: {what}
              </li>
            ))}
          </ul>
        </div>
      </fieldset>
      <UploadProgress fraction={progress} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          <BusyLabel busy={saving} busyText="Saving...">
            Save settings
          </BusyLabel>
        </button>
      </div>
      {dialogs.element}
    </form>
  );
}

/**
 * 'Featured listings': the home page's order. Listings are featured and removed from their
 * detail page ('Admin Features'); here they are only put in order.
 */
function FeaturedOrder({
  items,
  onChange,
  disabled,
}: {
  items: SiteSettingsData["featured"];
  onChange: (next: SiteSettingsData["featured"]) => void;
  disabled: boolean;
}) {
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    onChange(next);
  };
  return (
    <fieldset className="list-editor">
      <legend className="form-label">Featured listings</legend>
      {items.length === 0 ? (
        <p className="form-note">
          No listing is featured. Use 'Feature on home page' on a listing's page.
        </p>
      ) : (
        <ol className="list-editor-items featured-order">
          {items.map((item, i) => (
            <li key={`${item.collection}/${item.id}`} data-testid="featured-entry">
              <a href={listingPath(item.collection, item.id)}>{item.address}</a>{" "}
              <span className="form-note">({KINDS[item.collection].noun})</span>
              <div className="form-actions">
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  aria-label={`Move ${item.address} up`}
                  disabled={disabled || i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  aria-label={`Move ${item.address} down`}
                  disabled={disabled || i === items.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  Move down
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </fieldset>
  );
}
