// A property as insertListing() takes it, for database tests: 2 bedrooms, 1 bathroom, $1,500,
// not available, no photos; `fields` change any of it.
import type { ListingInput } from "~/features/listings/queries.server";

export function propertyInput(address: string, fields: Partial<ListingInput> = {}): ListingInput {
  return {
    address,
    bedrooms: 2,
    bathrooms: 1,
    description: "",
    image_urls: [],
    thumbnail_description: "",
    property_type: "Residential",
    currently_available: false,
    price: "1500",
    reserve_url: null,
    ...fields,
  };
}
