import { describe, expect, it } from "vitest";
import { listingKey } from "./listing";
import { isPossibleListingId } from "./listing-id";

describe("isPossibleListingId", () => {
  it("accepts every key an address can give, in any script", () => {
    for (const address of ["3233 4th Street N", "東京都港区六本木1-2-3", "Café 😀 Row", "a\tb"]) {
      expect(isPossibleListingId(listingKey(address))).toBe(true);
    }
  });

  it.each(["", "\0", "a\0b", "\uD800", "x\uDFFFy"])(
    "refuses %j (no stored text can hold it)",
    (id) => {
      expect(isPossibleListingId(id)).toBe(false);
    },
  );
});
