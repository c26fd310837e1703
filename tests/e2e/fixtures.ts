// Playwright Test fixtures of the browser tests: the shared test server's control port, listings
// seeded through the app's own queries (removed after the test), pages of their own, and an admin
// signed in through the development OpenID provider's popup.
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  type Page,
} from "@playwright/test";
import type { Listing } from "~/domain/listing";
import { listingKey } from "~/domain/listing";
import type { Collection } from "~/domain/listing-kinds";
import type { Role } from "~/features/auth/permissions";
import type { ListingInput } from "~/features/listings/queries.server";
import { newUser, signInThroughPopup, type TestUser } from "./auth-helpers";
import { type Control, control } from "./control";
import { recordDialogTimes } from "./dialog-times";
import { gotoHydrated } from "./helpers";
import { serverInfo } from "./server-info";

export { expect } from "@playwright/test";

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** The fields of a listing to seed; the rest take the values of an empty form. */
export type SeedFields = Partial<ListingInput> & { address: string; id?: string };

interface TestFixtures {
  /** Inserts a listing with the app's insertListing (id: the key of its address unless given). */
  seedListing: (collection: Collection, fields: SeedFields) => Promise<Listing>;
  /** Grants a staff role (an Owner's unless told) to an address; revoked after the test. */
  grantAdmin: (email: string, role?: Role) => Promise<void>;
  /** A page in a context of its own (cookies, storage), closed after the test. */
  newPage: (options?: BrowserContextOptions) => Promise<Page>;
  /**
   * Signs `page` in like a person, through the popup, starting at `startPath`; with `admin`,
   * the address is granted admin first (a grant by address works before the first sign-in).
   */
  signIn: (
    page: Page,
    user: TestUser,
    options?: { admin?: boolean; role?: Role; startPath?: string },
  ) => Promise<void>;
  /** A page of its own, signed in as this worker's admin. */
  adminPage: Page;
  /** After a failed test: the outbox as the server sees it, in the report (a late e-mail's cause). */
  outboxOnFailure: undefined;
}

interface WorkerFixtures {
  control: Control;
  /** An admin who signed in through the popup once per worker; its cookies for new contexts. */
  adminAccount: { user: TestUser; storageState: StorageState };
}

/** A context at the test server with one page; also for beforeAll hooks (no test options there). */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: serverInfo().baseURL, ...options });
  await recordDialogTimes(context);
  return context.newPage();
}

/** Resolves once the navbar shows the admin's 'Add Property' link. */
async function waitForAdminNavbar(page: Page) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Add Property", exact: true })
    .waitFor();
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // (Playwright reads what a fixture needs from its first parameter: `{}` is "nothing".)
  // biome-ignore lint/correctness/noEmptyPattern: see above
  baseURL: async ({}, use) => {
    await use(serverInfo().baseURL);
  },

  context: async ({ context }, use) => {
    await recordDialogTimes(context);
    await use(context);
  },

  control: [
    // biome-ignore lint/correctness/noEmptyPattern: see baseURL
    async ({}, use) => {
      await use(control);
    },
    { scope: "worker" },
  ],

  outboxOnFailure: [
    async ({ control }, use, testInfo) => {
      await use(undefined);
      if (testInfo.status === testInfo.expectedStatus) return;
      const outbox = await control.outboxSummary().catch((error: Error) => error.message);
      const text = JSON.stringify(outbox, null, 1);
      await testInfo.attach("outbox", { body: text, contentType: "text/plain" });
      console.error(`outbox after the failure of '${testInfo.title}':\n${text}`);
    },
    { auto: true },
  ],
  seedListing: async ({ control }, use) => {
    const seeded: { collection: Collection; id: string }[] = [];
    await use(async (collection, { id: givenId, ...fields }) => {
      const id = givenId ?? listingKey(fields.address);
      const input: ListingInput = {
        bedrooms: null,
        bathrooms: null,
        description: "",
        image_urls: [],
        thumbnail_description: "",
        property_type: "Residential",
        currently_available: collection === "properties" ? true : null,
        price: null,
        reserve_url: null,
        ...fields,
      };
      if (!(await control.insertListing(collection, id, input))) {
        throw new Error(`${collection}/${id} exists already`);
      }
      seeded.push({ collection, id });
      const listing = await control.getListing(collection, id);
      if (!listing) throw new Error(`${collection}/${id} was not stored`);
      return listing;
    });
    for (const { collection, id } of seeded) await control.removeListing(collection, id);
  },

  grantAdmin: async ({ control }, use) => {
    const granted: string[] = [];
    await use(async (email, role) => {
      granted.push(email);
      await control.grantAdmin(email, role);
    });
    for (const email of granted) await control.revokeAdmin(email);
  },

  newPage: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const page = await openPage(browser, options);
      contexts.push(page.context());
      return page;
    });
    for (const context of contexts) await context.close();
  },

  signIn: async ({ grantAdmin }, use) => {
    await use(async (page, user, { admin = false, role, startPath = "/" } = {}) => {
      if (admin || role) await grantAdmin(user.email, role);
      await gotoHydrated(page, startPath);
      await signInThroughPopup(page, user);
      if (admin || role === "owner" || role === "manager") await waitForAdminNavbar(page);
    });
  },

  adminPage: async ({ newPage, adminAccount }, use) => {
    await use(await newPage({ storageState: adminAccount.storageState }));
  },

  adminAccount: [
    async ({ browser, control }, use) => {
      const user = newUser("worker-admin", "Ada Admin");
      await control.grantAdmin(user.email);
      const page = await openPage(browser);
      await gotoHydrated(page, "/");
      await signInThroughPopup(page, user);
      await waitForAdminNavbar(page);
      const storageState = await page.context().storageState();
      await page.context().close();
      await use({ user, storageState });
      await control.revokeAdmin(user.email);
    },
    { scope: "worker" },
  ],
});
