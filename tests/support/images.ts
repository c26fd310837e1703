import sharp from "sharp";

/** A small JPEG with a GPS position in its EXIF block, like a phone photo. */
export function jpegWithGps(width = 640, height = 480, color = "#3a7bd5") {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .withExif({
      IFD0: { Make: "TestPhone", Model: "GPS Model" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "38/1 53/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "77/1 6/1 0/1",
      },
    })
    .jpeg()
    .toBuffer();
}

/** A tiny file whose header claims more pixels than the site accepts (a decompression bomb). */
export function pixelFlood(width = 9000, height = 9000) {
  return sharp({ create: { width, height, channels: 3, background: "#000" } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}
