// The hand-made access line must be the line pino itself would write
// (docs/decisions/0034-structured-logs-request-ids-and-health.md).
import { afterEach, describe, expect, it } from "vitest";
import { configureLogging, replaceRootLogger, rootLogger, writeJsonLine } from "./logger.server";

let restore: (() => void) | undefined;
afterEach(() => restore?.());

function capture() {
  const raw: string[] = [];
  const previous = configureLogging("debug", { write: (line: string) => void raw.push(line) });
  restore = () => void replaceRootLogger(previous);
  return { raw, logger: rootLogger() };
}

describe("writeJsonLine", () => {
  it("writes what pino writes for the same object and message, odd characters included", () => {
    const { raw, logger } = capture();
    const odd = `/a"b\\c\u0001\u2028é😀?q=<script>`;
    const object = { reqId: "id-1", req: { method: "GET", url: odd }, res: { statusCode: 404 } };
    const msg = `GET ${odd} 404 0 ms`;
    logger.info(object, msg);
    const members = `"reqId":"id-1","req":{"method":"GET","url":${JSON.stringify(odd)}},"res":{"statusCode":404}`;
    writeJsonLine(logger, "info", members, msg);
    expect(raw).toHaveLength(2);
    const [byPino, byHand] = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(raw[1]?.endsWith("}\n")).toBe(true);
    // Same keys in the same order, same values (the time may differ by a millisecond).
    expect(Object.keys(byHand ?? {})).toEqual(Object.keys(byPino ?? {}));
    expect({ ...byHand, time: 0 }).toEqual({ ...byPino, time: 0 });
    expect((byHand as { req: { url: string } }).req.url).toBe(odd);
  });
});
