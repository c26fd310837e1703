// The add forms keep a draft in the tab's session storage (docs/behaviour.md §2 add forms): restored on
// return and after a reload, emptied by 'Clear', never shared with another tab. Both kinds.
import { COLLECTIONS, KINDS } from "~/domain/listing-kinds";
import { asFiles, field, testImages, tiles } from "./admin-helpers";
import { expect, test } from "./fixtures";
import { gotoHydrated, nav, uniqueSuffix } from "./helpers";

test.use({ viewport: { width: 1280, height: 900 } });

for (const collection of COLLECTIONS) {
  const kind = KINDS[collection];
  const addLink = collection === "properties" ? "Add Property" : "Add New Construction";

  test(`${addLink} keeps the fields in session storage, restores them on return, and 'Clear' empties`, async ({
    adminPage: page,
  }) => {
    const images = await testImages();
    const s = uniqueSuffix();
    const draft: Record<string, string> = {
      Address: `E2E ${s} Draft Lane`,
      Bedrooms: "5",
      Bathrooms: "4",
      Description: "Draft line one\nDraft line two",
      "Thumbnail Description": "Draft thumbnail",
      ...(kind.hasOffer ? { Price: "3900" } : {}),
    };
    const stored = () => page.evaluate((key) => sessionStorage.getItem(key), `draft:${collection}`);
    await gotoHydrated(page, kind.addRoute);
    for (const [label, value] of Object.entries(draft)) await field(page, label).fill(value);
    if (kind.hasOffer) await field(page, "Currently Available").check();
    await field(page, "Property Type").selectOption("Vacation");
    await field(page, "Images").setInputFiles(asFiles([images.red, images.green]));
    await expect(tiles(page)).toHaveCount(2);

    await expect
      .poll(async () => JSON.parse((await stored()) ?? "{}"))
      .toMatchObject({
        address: draft.Address,
        bedrooms: "5",
        property_type: "Vacation",
        ...(kind.hasOffer ? { currently_available: true } : {}),
      });

    // Leave through the navbar and come back: the draft is restored.
    await nav(page).getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/about");
    await nav(page).getByRole("link", { name: addLink, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === kind.addRoute);
    for (const [label, value] of Object.entries(draft)) {
      await expect(field(page, label), label).toHaveValue(value);
    }
    if (kind.hasOffer) await expect(field(page, "Currently Available")).toBeChecked();
    await expect(field(page, "Property Type")).toHaveValue("Vacation");

    // A reload restores it as well.
    await page.reload();
    await expect(field(page, "Address")).toHaveValue(draft.Address as string);
    await expect(field(page, "Description")).toHaveValue(draft.Description as string);

    // Clear empties every field (and the picked photos) and forgets the draft.
    await field(page, "Images").setInputFiles(asFiles([images.blue]));
    await expect(tiles(page)).toHaveCount(1);
    await page.getByRole("button", { name: "Clear" }).click();
    for (const label of Object.keys(draft)) {
      await expect(field(page, label), label).toHaveValue("");
    }
    if (kind.hasOffer) await expect(field(page, "Currently Available")).not.toBeChecked();
    await expect(field(page, "Property Type")).toHaveValue("Residential");
    await expect(tiles(page)).toHaveCount(0);
    await expect
      .poll(async () => {
        const afterClear = await stored();
        return afterClear === null || JSON.parse(afterClear).address === "";
      })
      .toBe(true);
    await page.reload();
    await expect(page.locator("form.admin-form")).toHaveCount(1);
    await expect(field(page, "Address")).toHaveValue("");

    // Drafts belong to the tab's session: a new tab starts empty.
    await field(page, "Address").fill(draft.Address as string);
    const other = await page.context().newPage();
    await gotoHydrated(other, kind.addRoute);
    await expect(field(other, "Address")).toHaveValue("");
  });
}
