import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardDelaySeconds, selectFeatured } from "./featured";
import { listingKey } from "./listing";
import {
  applyFilters,
  FILTER_STORAGE_KEYS,
  filtersFromQuery,
  resolveFilters,
  storeFilters,
} from "./listing-filters";
import { bedBathLine, descriptionBullets, formatPrice } from "./listing-format";
import { listingPath } from "./listing-kinds";

describe("listingKey (docs/behaviour.md §3)", () => {
  it.each([
    ["3233 4th Street N", "3233-4th-street-n"],
    ["409 N Jackson Street", "409-n-jackson-street"],
    ["3131 Draper Drive Fairfax, VA ", "3131-draper-drive-fairfax,-va-"],
    ["12  Main St.", "12--main-st"],
    ["Apt #4 [rear] $ 1.5", "apt-4-rear--15"],
    ["Ünïcode Straße 5", "ünïcode-straße-5"],
    ["  lead", "--lead"],
    ["A.B#C$D[E]F", "abcdef"],
  ])("%j → %j", (address, key) => {
    expect(listingKey(address)).toBe(key);
  });

  it("only replaces spaces, leaving tabs and other characters", () => {
    expect(listingKey("A\tB")).toBe("a\tb");
  });
});

describe("bedBathLine", () => {
  it("joins both parts", () => expect(bedBathLine(3, 2)).toBe("3 Bedrooms | 2 Bathrooms"));
  it("keeps halves", () => expect(bedBathLine(3, 2.5)).toBe("3 Bedrooms | 2.5 Bathrooms"));
  it("leaves out falsy parts", () => {
    expect(bedBathLine(0, 2)).toBe("2 Bathrooms");
    expect(bedBathLine(4, null)).toBe("4 Bedrooms");
    expect(bedBathLine(null, undefined)).toBe("");
    expect(bedBathLine("", "")).toBe("");
  });
});

describe("descriptionBullets", () => {
  it("splits at line breaks and runs of two or more dots", () => {
    expect(descriptionBullets("One\nTwo..Three...Four\r\nFive")).toEqual([
      "One",
      "Two",
      "Three",
      "Four",
      "Five",
    ]);
  });
  it("keeps single dots and drops blank parts", () => {
    expect(descriptionBullets("Built 1990. New roof\n\n  \n....")).toEqual([
      "Built 1990. New roof",
    ]);
  });
  it("is empty for no description", () => {
    expect(descriptionBullets("")).toEqual([]);
    expect(descriptionBullets(null)).toEqual([]);
  });
});

describe("formatPrice", () => {
  it.each([
    ["3200", "$3,200"],
    ["2950.00", "$2,950"],
    ["1500.", "$1,500"],
    ["0", "$0"],
    ["1234567.4", "$1,234,567"],
  ])("digits %j → %j", (input, output) => expect(formatPrice(input)).toBe(output));
  it.each(["Call for pricing", "$2,000/month", "2,000", " 2000", "2000 ", ".5", "1.2.3"])(
    "text %j is shown as is",
    (input) => expect(formatPrice(input)).toBe(input),
  );
  it("is empty for no price", () => expect(formatPrice(null)).toBe(""));
  // formatPrice avoids Intl on the client (decision 0055); it must write what Intl writes.
  const intl = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  it.each([
    "0.5",
    "1.5",
    "2.5",
    "999.5",
    "999999.49",
    "9007199254740993",
    "123456789012345678901",
    "1234567890123456789012345",
    "9".repeat(400),
  ])("writes %j as Intl does", (input) => {
    expect(formatPrice(input)).toBe(intl.format(Number(input)));
  });
  it("writes any price of digits as Intl does", () => {
    const digits = fc.stringMatching(/^\d{1,30}(\.\d{0,6})?$/);
    fc.assert(
      fc.property(digits, (input) => formatPrice(input) === intl.format(Number(input))),
      { numRuns: 2000 },
    );
  });
});

describe("featured selection", () => {
  const featured = ["3233 4th Street N", "409 N Jackson Street", "3131 Draper Drive Fairfax, VA "];
  it("keeps exact matches only, in the featured order", () => {
    const items = [
      { address: "3131 Draper Drive Fairfax, VA " },
      { address: "409 N Jackson Street" },
      { address: "3131 Draper Drive Fairfax, VA" },
      { address: "elsewhere" },
      { address: "3233 4th Street N" },
    ];
    expect(selectFeatured(items, featured).map((i) => i.address)).toEqual([
      "3233 4th Street N",
      "409 N Jackson Street",
      "3131 Draper Drive Fairfax, VA ",
    ]);
  });
  it("animates at 0.5 s plus 0.2 s per card", () => {
    expect([0, 1, 2, 3].map(cardDelaySeconds)).toEqual([0.5, 0.7, 0.9, 1.1]);
  });
});

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe("list filters (docs/behaviour.md §4, §5)", () => {
  const items = [
    { id: "a", currently_available: true, property_type: "Residential" as const },
    { id: "b", currently_available: false, property_type: "Residential" as const },
    { id: "c", currently_available: true, property_type: "Vacation" as const },
    { id: "d", currently_available: null, property_type: "Commercial" as const },
  ];
  it("passes records through both checks", () => {
    const ids = (f: Parameters<typeof applyFilters>[1]) => applyFilters(items, f).map((i) => i.id);
    expect(ids({ availableOnly: false, propertyType: "" })).toEqual(["a", "b", "c", "d"]);
    expect(ids({ availableOnly: true, propertyType: "" })).toEqual(["a", "c"]);
    expect(ids({ availableOnly: false, propertyType: "Residential" })).toEqual(["a", "b"]);
    expect(ids({ availableOnly: true, propertyType: "Vacation" })).toEqual(["c"]);
  });

  it("?filter=available sets available-only, clears the type and stores both", () => {
    const storage = memoryStorage({ filterAvailable: "false", selectedPropertyType: "Vacation" });
    const filters = resolveFilters("properties", new URLSearchParams("filter=available"), storage);
    expect(filters).toEqual({ availableOnly: true, propertyType: "" });
    expect(storage.data.get("filterAvailable")).toBe("true");
    expect(storage.data.get("selectedPropertyType")).toBe("");
  });

  it("restores stored values without the query", () => {
    const storage = memoryStorage({ filterAvailable: "true", selectedPropertyType: "Commercial" });
    expect(resolveFilters("properties", new URLSearchParams(), storage)).toEqual({
      availableOnly: true,
      propertyType: "Commercial",
    });
    expect(resolveFilters("properties", new URLSearchParams(), memoryStorage())).toEqual({
      availableOnly: false,
      propertyType: "",
    });
  });

  it("constructions remember only their type, under their own key", () => {
    const storage = memoryStorage();
    storeFilters("newConstruction", { availableOnly: true, propertyType: "Vacation" }, storage);
    expect([...storage.data.keys()]).toEqual([FILTER_STORAGE_KEYS.newConstruction.type]);
    expect(
      resolveFilters("newConstruction", new URLSearchParams("filter=available"), storage),
    ).toEqual({
      availableOnly: false,
      propertyType: "Vacation",
    });
    expect(filtersFromQuery("newConstruction", new URLSearchParams("filter=available"))).toBeNull();
  });
});

describe("listingPath", () => {
  it("links by source and encodes the key", () => {
    expect(listingPath("properties", "3233-4th-street-n")).toBe("/properties/3233-4th-street-n");
    expect(listingPath("newConstruction", "3131-draper-drive-fairfax,-va-")).toBe(
      "/new-construction/3131-draper-drive-fairfax%2C-va-",
    );
  });
});
