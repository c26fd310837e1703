// The two listing kinds differ only in names, routes, messages and three property-only fields.
// Everything else (queries, pages, forms) is written once and reads this descriptor.

export const PROPERTY_TYPES = ["Residential", "Commercial", "Vacation"] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export type Collection = "properties" | "newConstruction";
export const COLLECTIONS: readonly Collection[] = ["properties", "newConstruction"];

export interface ListingKind {
  collection: Collection;
  /** Public list and detail route prefix. */
  route: "/properties" | "/new-construction";
  editRoute: "/editproperties" | "/edit-construction";
  addRoute: "/addproperty" | "/addnewconstruction";
  /** 'Property' / 'Construction', as used in the messages of docs/behaviour.md §8. */
  noun: "Property" | "Construction";
  /** The add page's title (docs/behaviour.md §2). */
  addTitle: "Add Property" | "Add New Construction";
  /** Price, availability and reserve URL exist only for properties. */
  hasOffer: boolean;
  listTitle: string;
  typeFilterLabel: string;
  loadingText: string;
}

export const KINDS: Record<Collection, ListingKind> = {
  properties: {
    collection: "properties",
    route: "/properties",
    editRoute: "/editproperties",
    addRoute: "/addproperty",
    noun: "Property",
    addTitle: "Add Property",
    hasOffer: true,
    listTitle: "Properties",
    typeFilterLabel: "Property Type",
    loadingText: "Loading properties...",
  },
  newConstruction: {
    collection: "newConstruction",
    route: "/new-construction",
    editRoute: "/edit-construction",
    addRoute: "/addnewconstruction",
    noun: "Construction",
    addTitle: "Add New Construction",
    hasOffer: false,
    listTitle: "New Construction",
    typeFilterLabel: "Construction Type",
    loadingText: "Loading...",
  },
};

export function isCollection(value: unknown): value is Collection {
  return value === "properties" || value === "newConstruction";
}

export function isPropertyType(value: unknown): value is PropertyType {
  return (PROPERTY_TYPES as readonly unknown[]).includes(value);
}

/**
 * The kind whose page a path is, by its first segment: a list, detail, history, edit or add
 * route. One admin page module serves both kinds and learns which from its URL; routes match
 * whatever their case, so the segment is compared in lower case.
 */
export function kindOfPath(pathname: string): ListingKind {
  const first = `/${(pathname.split("/")[1] ?? "").toLowerCase()}`;
  const kind = Object.values(KINDS).find(
    (k) => k.route === first || k.editRoute === first || k.addRoute === first,
  );
  if (!kind) throw new Error(`${pathname} is no listing kind's page`);
  return kind;
}

/** The public detail route of a record. */
export function listingPath(collection: Collection, id: string) {
  return `${KINDS[collection].route}/${encodeURIComponent(id)}`;
}

/**
 * A listing named in one value, `{collection}/{id}` ('properties/12-main-st'), as forms and the
 * inbox's filter carry it; null for anything else.
 */
export function parseListingRef(value: string): { collection: Collection; id: string } | null {
  const slash = value.indexOf("/");
  const collection = value.slice(0, slash);
  const id = value.slice(slash + 1);
  // No control characters (a NUL is no text to PostgreSQL) and no lone surrogates.
  if (slash < 0 || !isCollection(collection) || !/^[^/\s\p{Cc}\p{Cs}]{1,300}$/u.test(id)) {
    return null;
  }
  return { collection, id };
}
