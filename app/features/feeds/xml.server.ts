import { XMLBuilder } from "fast-xml-parser";

/** The one XML writer of the feeds: attributes as `@_name`, text as `#text`, every special character escaped. */
export const xmlBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  format: true,
  indentBy: "  ",
  suppressEmptyNode: true,
  processEntities: true,
});

export const XML_DECLARATION = { "@_version": "1.0", "@_encoding": "UTF-8" };
