// The one error dialog of the admin screens (docs/decisions/0058-one-error-model.md): the text made
// from the error's message, and the failed request's reference whenever the server answered.
import { describe, expect, it } from "vitest";
import { messages } from "~/domain/messages";
import { ApiError } from "~/features/admin/api-client";
import { errorDialogOf, messageOf } from "./error-dialog";

describe("errorDialogOf", () => {
  it("shows the catalogue's text and the answer's request id", () => {
    const error = new ApiError(500, "Something went wrong on the server.", undefined, "req-42");
    expect(errorDialogOf(error, (m) => messages.saveFailed("Property", m))).toEqual({
      text: "Failed to save property. Please try again. Error: Something went wrong on the server.",
      reference: "req-42",
    });
  });

  it("shows a refusal's message as it is, with its reference", () => {
    const error = new ApiError(
      404,
      "That listing is no longer in Recently deleted.",
      undefined,
      "r1",
    );
    expect(errorDialogOf(error)).toEqual({
      text: "That listing is no longer in Recently deleted.",
      reference: "r1",
    });
  });

  it("has no reference when no answer came, or for an error that is no request's", () => {
    expect(errorDialogOf(new ApiError(0, "The server could not be reached."))).toEqual({
      text: "The server could not be reached.",
      reference: undefined,
    });
    expect(errorDialogOf(new Error("boom")).reference).toBeUndefined();
    expect(errorDialogOf("plain").text).toBe("plain");
    expect(messageOf(undefined)).toBe("undefined");
  });
});
