import { type CompanyContent, company } from "~/domain/company";
import { type DrawText, embedTextFonts } from "~/shared/pdf-fonts.server";

/** Fields of the rental application form, in page order: [label, field name, lines]. */
export const APPLICATION_FIELDS: [string, string, number][] = [
  ["Property address applied for", "property_address", 1],
  ["Desired move-in date", "move_in_date", 1],
  ["Full name", "applicant_name", 1],
  ["Date of birth", "date_of_birth", 1],
  ["Phone", "phone", 1],
  ["E-mail", "email", 1],
  ["Current address", "current_address", 1],
  ["Time at current address", "time_at_address", 1],
  ["Current landlord (name and phone)", "current_landlord", 1],
  ["Employer", "employer", 1],
  ["Position and length of employment", "position", 1],
  ["Monthly income", "monthly_income", 1],
  ["Other occupants (names and ages)", "occupants", 2],
  ["Pets (type and number)", "pets", 1],
  ["Emergency contact (name and phone)", "emergency_contact", 1],
  ["Anything else we should know", "notes", 3],
];

/**
 * A fillable PDF application form, generated from the company content (no binary in the repo).
 * Text is drawn in embedded Unicode fonts (app/shared/pdf-fonts.server.ts): any company or contact name
 * prints, "Łódź" and "東京" included.
 */
export async function buildApplicationPdf(content: CompanyContent = company): Promise<Uint8Array> {
  const { PDFDocument, rgb, StandardFonts } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Rental Application — ${content.name}`);
  pdf.setAuthor(content.name);
  pdf.setSubject("Rental application form");
  pdf.setCreationDate(new Date(Date.UTC(2017, 0, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2017, 0, 1)));
  const page = pdf.addPage([612, 792]);
  const fonts = await embedTextFonts(pdf);
  const text: DrawText = (line, options) => fonts.draw(page, line, options);
  // Form fields keep a standard font: their appearance is redrawn by the viewer as people type,
  // which a subset font (only the glyphs printed here) could not do.
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const form = pdf.getForm();
  const dark = rgb(0.043, 0.239, 0.42);

  await text(content.name, { x: 50, y: 740, size: 18, bold: true, color: dark });
  await text("Rental Application", { x: 50, y: 716, size: 14 });
  await text("Please fill in every field with accurate information, then submit this form", {
    x: 50,
    y: 696,
    size: 9,
  });
  await text("to the landlord or property manager.", { x: 50, y: 684, size: 9 });

  let y = 660;
  for (const [label, name, lines] of APPLICATION_FIELDS) {
    const height = 16 * lines + 2;
    await text(label, { x: 50, y, size: 9, bold: true });
    const field = form.createTextField(name);
    if (lines > 1) field.enableMultiline();
    field.addToPage(page, { x: 220, y: y - height + 12, width: 342, height, font: regular });
    y -= height + 10;
  }
  y -= 6;
  await text("I certify that the information above is true and complete.", { x: 50, y, size: 9 });
  y -= 28;
  await text("Signature", { x: 50, y: y + 4, size: 9, bold: true });
  form
    .createTextField("signature")
    .addToPage(page, { x: 120, y, width: 240, height: 18, font: regular });
  await text("Date", { x: 380, y: y + 4, size: 9, bold: true });
  form
    .createTextField("signature_date")
    .addToPage(page, { x: 412, y, width: 150, height: 18, font: regular });
  const contact =
    content.contacts.find((c) => c.role === "Property Manager") ?? content.contacts[0];
  if (contact) {
    await text(
      `Questions? ${contact.name}, ${contact.role}: ${contact.email}${contact.phone ? `, ${contact.phone}` : ""}`,
      { x: 50, y: 40, size: 8, color: rgb(0.35, 0.35, 0.35) },
    );
  }
  return pdf.save();
}
