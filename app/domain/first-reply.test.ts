import { describe, expect, it } from "vitest";
import { firstReplyAt, waitText } from "./first-reply";

describe("the first reply", () => {
  const at = (minutes: number) => new Date(Date.UTC(2027, 0, 1, 9, minutes)).toISOString();
  it("is a person's first answer or first status saying they answered, not the automatic reply", () => {
    const events = [
      { at: at(0), byEmail: null, action: "received", detail: {} },
      { at: at(1), byEmail: null, action: "auto-reply", detail: {} },
      { at: at(5), byEmail: "amy@example.com", action: "note", detail: {} },
      { at: at(9), byEmail: "amy@example.com", action: "status", detail: { to: "closed" } },
      { at: at(30), byEmail: "amy@example.com", action: "status", detail: { to: "contacted" } },
      { at: at(40), byEmail: "amy@example.com", action: "reply", detail: {} },
    ];
    expect(firstReplyAt(events)).toBe(at(30));
    expect(firstReplyAt(events.slice(0, 4))).toBeNull();
    expect(firstReplyAt([events[0] as (typeof events)[0], events[5] as (typeof events)[0]])).toBe(
      at(40),
    );
  });

  it("reads as minutes, hours and days", () => {
    expect(waitText(20_000)).toBe("< 1 min");
    expect(waitText(45 * 60_000)).toBe("45 min");
    expect(waitText(3 * 3_600_000)).toBe("3 h");
    expect(waitText(3 * 3_600_000 + 5 * 60_000)).toBe("3 h 5 min");
    expect(waitText(52 * 3_600_000)).toBe("2 d 4 h");
  });
});
