import { company } from "~/domain/company";
import { listingKey } from "~/domain/listing";
import type { Collection } from "~/domain/listing-kinds";
import type { ImageStore } from "~/features/images/index.server";
import { processImage } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { demoPhoto, type SceneKind } from "./demo-images.server";
import { insertListing, type ListingInput } from "./queries.server";

type DemoListing = Omit<ListingInput, "image_urls"> & {
  collection: Collection;
  photos: { scene: SceneKind; count: number };
};

const [featured1, featured2, featured3] = company.featuredAddresses as [string, string, string];

const property = {
  collection: "properties" as const,
  currently_available: true,
  price: null,
  reserve_url: null,
};
const construction = {
  collection: "newConstruction" as const,
  currently_available: null,
  price: null,
  reserve_url: null,
};

/** Every branch of every page has an example: types, availability, prices, images or none. */
export const DEMO_LISTINGS: DemoListing[] = [
  {
    ...property,
    address: featured1,
    bedrooms: 4,
    bathrooms: 3,
    price: "3200",
    property_type: "Residential",
    thumbnail_description: "Renovated colonial near Clarendon",
    description:
      "Renovated four-bedroom colonial\nHardwood floors throughout..Updated kitchen with gas range\nFenced back yard and off-street parking...Ten minutes' walk to the Metro",
    square_feet: 2150,
    city: "Arlington",
    state: "VA",
    zip: "22201",
    pets: "cats-and-dogs",
    available_from: "2026-12-01",
    photos: { scene: "house", count: 3 },
  },
  {
    ...property,
    address: featured2,
    bedrooms: 3,
    bathrooms: 2.5,
    price: "2950.00",
    currently_available: false,
    property_type: "Residential",
    thumbnail_description: "Brick rambler on a quiet street",
    description:
      "Three-bedroom brick rambler\nFinished basement with laundry\nScreened porch..Two-car driveway",
    square_feet: 1680,
    city: "Arlington",
    state: "VA",
    zip: "22207",
    pets: "cats",
    available_from: "2027-02-01",
    photos: { scene: "house", count: 2 },
  },
  {
    ...property,
    address: "1021 N Kenmore Street",
    bedrooms: 5,
    bathrooms: 3,
    price: "Call for pricing",
    property_type: "Residential",
    thumbnail_description: "Five bedrooms, room to grow",
    description: "Spacious five-bedroom home\nLarge eat-in kitchen\nWalk to schools and parks",
    square_feet: 2900,
    city: "Arlington",
    state: "VA",
    zip: "22201",
    pets: "dogs",
    available_from: "2027-01-15",
    photos: { scene: "house", count: 2 },
  },
  {
    ...property,
    address: "4100 Chain Bridge Road Suite 200",
    bedrooms: null,
    bathrooms: 2,
    price: "4500",
    property_type: "Commercial",
    thumbnail_description: "Second-floor office suite in Fairfax",
    description:
      "2,400 sq ft office suite..Six private offices and a conference room..Ample parking",
    square_feet: 2400,
    city: "Fairfax",
    state: "VA",
    zip: "22030",
    pets: "none",
    available_from: "2026-12-15",
    photos: { scene: "office", count: 2 },
  },
  {
    ...property,
    address: "10560 Main Street",
    bedrooms: null,
    bathrooms: null,
    currently_available: false,
    property_type: "Commercial",
    thumbnail_description: "Retail frontage on Main Street",
    description: "Street-level retail space\nHigh foot traffic",
    square_feet: 1200,
    city: "Fairfax",
    state: "VA",
    zip: "22030",
    pets: "none",
    photos: { scene: "office", count: 0 },
  },
  {
    ...property,
    address: "1175 Ocean Trail Corolla, NC",
    bedrooms: 6,
    bathrooms: 5,
    property_type: "Vacation",
    reserve_url: "https://www.example.com/reserve/1175-ocean-trail",
    thumbnail_description: "Oceanfront beach house",
    description:
      "Oceanfront with private beach access\nPool and hot tub..Sleeps 14\nBooked through our partner rental agency",
    square_feet: 3800,
    city: "Corolla",
    state: "NC",
    zip: "27927",
    pets: "dogs",
    available_from: "2027-05-01",
    photos: { scene: "beach", count: 3 },
  },
  {
    ...property,
    address: "865 Lighthouse Drive Corolla, NC",
    bedrooms: 4,
    bathrooms: 3,
    currently_available: false,
    property_type: "Vacation",
    reserve_url: "https://www.example.com/reserve/865-lighthouse-drive",
    thumbnail_description: "Soundside cottage near the lighthouse",
    description: "Soundside cottage\nKayak launch..Sunset views",
    square_feet: 1900,
    city: "Corolla",
    state: "NC",
    zip: "27927",
    pets: "none",
    photos: { scene: "beach", count: 1 },
  },
  {
    ...construction,
    address: featured3,
    bedrooms: 5,
    bathrooms: 4.5,
    property_type: "Residential",
    thumbnail_description: "New build, ready next spring",
    description:
      "New five-bedroom craftsman\nChef's kitchen with island..Primary suite with walk-in closet\nThree-car garage",
    square_feet: 3400,
    city: "Fairfax",
    state: "VA",
    zip: "22031",
    photos: { scene: "site", count: 3 },
  },
  {
    ...construction,
    address: "2200 Lee Highway",
    bedrooms: null,
    bathrooms: null,
    property_type: "Commercial",
    thumbnail_description: "Mixed-use building under construction",
    description: "Ground-floor retail with offices above\nCompletion planned for next year",
    square_feet: 18000,
    city: "Arlington",
    state: "VA",
    zip: "22201",
    photos: { scene: "site", count: 0 },
  },
];

/**
 * Whether this start may load the demo listings (docs/decisions/0033-demo-content-once-on-a-new-embedded-database.md):
 * by default only into an embedded database this start created; with `SEED_DEMO=true` also into
 * an existing or PostgreSQL one; never with `SEED_DEMO=false`. Either way seedDemoContent()
 * loads them at most once in the database's life.
 */
export function demoContentWanted(
  seedDemo: boolean | undefined,
  newEmbeddedDatabase: boolean,
): boolean {
  return seedDemo ?? newEmbeddedDatabase;
}

/**
 * Loads the demo listings, photos included, once in the database's life and only into an
 * empty database. The first call records its outcome (table demo_content, migration 0004) in
 * the same transaction that checks for listings, so later calls, also from another instance
 * starting at the same moment, load nothing.
 */
export async function seedDemoContent(db: Db, images: ImageStore): Promise<number> {
  const claimed = await db.transaction(async (tx) => {
    const empty = (await tx.query("SELECT 1 FROM listings LIMIT 1")).length === 0;
    const rows = await tx.query(
      "INSERT INTO demo_content (loaded) VALUES ($1) ON CONFLICT (once) DO NOTHING RETURNING loaded",
      [empty],
    );
    return rows.length === 1 && empty;
  });
  if (!claimed) return 0;
  let seed = 1;
  for (const { collection, photos, ...input } of DEMO_LISTINGS) {
    const id = listingKey(input.address);
    const urls: string[] = [];
    const timestamp = Date.now();
    for (let i = 0; i < photos.count; i++) {
      const processed = await processImage(await demoPhoto(photos.scene, seed++));
      urls.push(
        await images.saveProcessed(collection, id, images.fileName(timestamp, i), processed),
      );
    }
    await insertListing(db, collection, id, { ...input, image_urls: urls });
  }
  return DEMO_LISTINGS.length;
}
