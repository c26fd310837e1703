// The online application without JavaScript (docs/behaviour.md §32): every step is a plain form
// the server answers, a refused step keeps what was typed with the error beside its field,
// 'Back' keeps the answers, and documents are uploaded and removed by plain posts.
import sharp from "sharp";
import { expect, test } from "./fixtures";
import { exactly, heading } from "./helpers";

test.use({ javaScriptEnabled: false });

test("the steps, a refused step, 'Back', a document and the confirmation work without JavaScript", async ({
  page,
}) => {
  await page.goto("/rental-application/apply?address=3233%204th%20Street%20N");
  await expect(heading(page)).toHaveText(exactly("Apply online"));
  await expect(page.getByText("For 3233 4th Street N")).toBeVisible();
  // The address named the listing: no property to pick.
  await expect(page.getByLabel("Property you are applying for")).toHaveCount(0);

  await page.getByLabel("Full name").fill("Nora Script");
  await page.getByLabel("E-mail").fill("nora@example.com");
  await page.getByLabel("Phone").fill("703-555-0142");
  await page.getByLabel("Date of birth").fill("1991-04-05");
  await page.getByLabel("Desired move-in date").fill("2030-01-15");
  await page.getByLabel("Number of occupants").fill("0");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  // Refused before anything is stored: the error beside its field, the rest as typed.
  await expect(page.locator(`#${await errorIdOf(page, "Number of occupants")}`)).toHaveText(
    "Enter a whole number from 1 to 20.",
  );
  await expect(page.getByLabel("Full name")).toHaveValue("Nora Script");
  await page.getByLabel("Number of occupants").fill("2");
  await page.getByRole("button", { name: "Next", exact: true }).click();

  await expect(page).toHaveURL(/\/rental-application\/continue\?token=[\w-]{43}&step=residence$/);
  await expect(page.locator("h2").first()).toHaveText("Where you live now");
  await page.getByLabel("Since when").fill("2019-06-01");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.locator(`#${await errorIdOf(page, "Address")}`)).toHaveText(
    "Fill in 'Address'.",
  );
  await expect(page.getByLabel("Since when")).toHaveValue("2019-06-01");
  await page.getByLabel("Address", { exact: true }).fill("9 Old Road, Falls Church, VA");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.locator("h2").first()).toHaveText("Employment and income");
  await page.getByRole("button", { name: "Back", exact: true }).click();
  await expect(page.getByLabel("Address", { exact: true })).toHaveValue(
    "9 Old Road, Falls Church, VA",
  );

  // Documents: a plain multipart post, listed, then removed.
  const url = new URL(page.url());
  url.searchParams.set("step", "documents");
  await page.goto(url.pathname + url.search);
  await expect(page.locator("h2").first()).toHaveText("Documents");
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#08c" } })
    .png()
    .toBuffer();
  await page.getByLabel("Kind of document").selectOption({ label: "Photo ID" });
  await page
    .getByLabel("File (JPEG, PNG or PDF, up to 10 MB)")
    .setInputFiles({ name: "licence.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.locator(".application-documents li")).toHaveText([/Photo ID: licence\.png/]);
  await page
    .getByLabel("File (JPEG, PNG or PDF, up to 10 MB)")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("Send a JPEG, PNG or PDF file.")).toBeVisible();
  await page.getByRole("button", { name: "Remove licence.png" }).click();
  await expect(page.getByText("No documents yet.")).toBeVisible();
  // A file chosen and 'Next' pressed instead of 'Upload': 'Next' sends it too.
  await page
    .getByLabel("File (JPEG, PNG or PDF, up to 10 MB)")
    .setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.locator("h2").first()).toHaveText("Review and submit");
  await expect(page.locator("section.application-review li")).toHaveText([
    "Photo ID: passport.png",
  ]);

  // 'Review and submit' refuses without the confirmation, and names the step still refused.
  url.searchParams.set("step", "review");
  await page.goto(url.pathname + url.search);
  await expect(page.getByText("9 Old Road, Falls Church, VA")).toBeVisible();
  await page.getByRole("button", { name: "Submit application" }).click();
  await expect(
    page.getByText("Tick the box to confirm before you submit.", { exact: true }),
  ).toBeVisible();
  await expect(
    page.getByText("Some answers in 'Employment and income' need attention.", { exact: true }),
  ).toBeVisible();
});

/** The id of the error a field names in its aria-describedby (set only when it has one). */
async function errorIdOf(page: import("@playwright/test").Page, label: string) {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  return (await field.getAttribute("aria-describedby")) ?? "";
}
