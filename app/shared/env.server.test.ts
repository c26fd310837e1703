import { describe, expect, it } from "vitest";
import { readEnv } from "./env.server";

describe("readEnv", () => {
  it("listens on every interface only in production with a PUBLIC_URL, else on loopback", () => {
    expect(readEnv({}).host).toBe("127.0.0.1");
    expect(readEnv({ NODE_ENV: "development" }).host).toBe("127.0.0.1");
    expect(readEnv({ NODE_ENV: "test" }).host).toBe("127.0.0.1");
    // `npm start` as the README gives it: a trial on this computer, applications open.
    expect(readEnv({ NODE_ENV: "production" }).host).toBe("127.0.0.1");
    expect(
      readEnv({ NODE_ENV: "production", PUBLIC_URL: "https://leasing.example.com" }).host,
    ).toBe("0.0.0.0");
    expect(readEnv({ NODE_ENV: "development", HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(readEnv({ NODE_ENV: "production", HOST: "10.0.0.5" }).host).toBe("10.0.0.5");
    expect(readEnv({ NODE_ENV: "development", HOST: "" }).host).toBe("127.0.0.1");
  });
});

describe("TRUST_PROXY", () => {
  it("trusts no proxy by default", () => {
    expect(readEnv({}).trustProxy).toBe(false);
    expect(readEnv({ TRUST_PROXY: "" }).trustProxy).toBe(false);
    expect(readEnv({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
  });

  it("takes a number of hops, or addresses, ranges and Express's range names", () => {
    expect(readEnv({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(readEnv({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
    expect(readEnv({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.7,fd00::/8" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "fd00::/8",
    ]);
  });

  it.each([
    ["true", "would let any client choose its own address"],
    ["10.0.0.0/33", '"10.0.0.0/33" is not'],
    ["proxy.example.com", '"proxy.example.com" is not'],
    ["loopback,", '"" is not'],
  ])("refuses %j clearly", (value, message) => {
    expect(() => readEnv({ TRUST_PROXY: value })).toThrow(message);
  });
});

describe("limits", () => {
  it("has defaults and takes positive whole numbers only", () => {
    expect(readEnv({}).limits).toEqual({
      signInsPer10Minutes: 60,
      writesPerMinute: 300,
      rendersPerMinute: 120,
      liveStreamsPerClient: 20,
      liveStreamsTotal: 1000,
    });
    expect(readEnv({ LIVE_STREAMS_PER_CLIENT: "1100" }).limits.liveStreamsPerClient).toBe(1100);
    expect(() => readEnv({ WRITE_RATE_LIMIT: "0" })).toThrow("WRITE_RATE_LIMIT");
    expect(() => readEnv({ RENDER_RATE_LIMIT: "-1" })).toThrow("RENDER_RATE_LIMIT");
    expect(() => readEnv({ INQUIRY_RATE_LIMIT: "0" })).toThrow("INQUIRY_RATE_LIMIT");
    expect(() => readEnv({ INBOX_NOTIFY_EMAILS: "staff@example.com, nobody" })).toThrow(
      "INBOX_NOTIFY_EMAILS",
    );
    expect(readEnv({ INBOX_NOTIFY_EMAILS: " a@example.com ,b@example.com" }).leads.notify).toEqual([
      "a@example.com",
      "b@example.com",
    ]);
    expect(() => readEnv({ SMTP_URL: "http://mail.example" })).toThrow("SMTP_URL");
    expect(() => readEnv({ SIGN_IN_RATE_LIMIT: "many" })).toThrow("SIGN_IN_RATE_LIMIT");
  });
});

describe("object storage", () => {
  it("uses the disk unless S3_BUCKET is set", () => {
    expect(readEnv({}).s3).toBeNull();
    expect(readEnv({ S3_BUCKET: "leasing-photos" }).s3).toEqual({
      bucket: "leasing-photos",
      privateBucket: "leasing-photos",
      forcePathStyle: false,
    });
    expect(readEnv({ S3_BUCKET: "photos", S3_FORCE_PATH_STYLE: "true" }).s3?.forcePathStyle).toBe(
      true,
    );
  });

  it("keeps the trash in S3_PRIVATE_BUCKET, required when a CDN serves S3_BUCKET (decision 0052)", () => {
    const both = { S3_BUCKET: "leasing-photos", PHOTO_BASE_URL: "https://cdn.example.com" };
    expect(() => readEnv(both)).toThrow(
      "S3_PRIVATE_BUCKET: required with S3_BUCKET and PHOTO_BASE_URL",
    );
    expect(readEnv({ ...both, S3_PRIVATE_BUCKET: "leasing-private" }).s3?.privateBucket).toBe(
      "leasing-private",
    );
    expect(() => readEnv({ ...both, S3_PRIVATE_BUCKET: "leasing-photos" })).toThrow(
      "S3_PRIVATE_BUCKET: must be another bucket than S3_BUCKET",
    );
    expect(() => readEnv({ S3_PRIVATE_BUCKET: "leasing-private" })).toThrow(
      "S3_PRIVATE_BUCKET: is used only with S3_BUCKET",
    );
    expect(() => readEnv({ ...both, S3_PRIVATE_BUCKET: "Bad_Name" })).toThrow(
      "S3_PRIVATE_BUCKET: not a bucket name",
    );
    // PHOTO_BASE_URL with photos on disk: the CDN's origin is the site's /images.
    expect(readEnv({ PHOTO_BASE_URL: "https://cdn.example.com" }).s3).toBeNull();
  });

  it("refuses a bad bucket name or photo base URL clearly", () => {
    expect(() => readEnv({ S3_BUCKET: "Photos_Bucket" })).toThrow("S3_BUCKET: not a bucket name");
    expect(() => readEnv({ PHOTO_BASE_URL: "ftp://cdn.example.com" })).toThrow("PHOTO_BASE_URL");
    expect(readEnv({ PHOTO_BASE_URL: "https://cdn.example.com/p/" }).photoBaseUrl).toBe(
      "https://cdn.example.com/p",
    );
  });
});

describe("development sign-in (decision 0013)", () => {
  it("runs only when NODE_ENV is exactly development and no OIDC client is configured", () => {
    expect(readEnv({ NODE_ENV: "development" }).devIdentityProvider).toBe(true);
    expect(readEnv({}).devIdentityProvider).toBe(true); // NODE_ENV's default is development
    expect(readEnv({ NODE_ENV: "test" }).devIdentityProvider).toBe(false);
    expect(readEnv({ NODE_ENV: "production" }).devIdentityProvider).toBe(false);
    const oidc = { OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" };
    expect(readEnv({ NODE_ENV: "development", ...oidc }).devIdentityProvider).toBe(false);
  });

  it("refuses a NODE_ENV it does not know (e.g. staging) instead of guessing", () => {
    expect(() => readEnv({ NODE_ENV: "staging" })).toThrow("NODE_ENV");
  });
});

describe("online applications' settings", () => {
  it("takes APPLICATION_DATA_KEY only as 32 bytes of base64, and keeps for 180 days by default", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(readEnv({ APPLICATION_DATA_KEY: ` ${key} ` }).applications).toEqual({
      dataKey: key,
      dataKeyPrevious: null,
      retentionDays: 180,
      documentQuotaMb: 40,
      undecidedDays: 180,
    });
    expect(
      readEnv({ APPLICATION_DATA_KEY: key, APPLICATION_DATA_KEY_PREVIOUS: key }).applications
        .dataKeyPrevious,
    ).toBe(key);
    expect(() => readEnv({ APPLICATION_DATA_KEY_PREVIOUS: "short" })).toThrow(
      "APPLICATION_DATA_KEY_PREVIOUS",
    );
    expect(readEnv({}).mail.retentionDays).toBe(30);
    expect(readEnv({ OUTBOX_RETENTION_DAYS: "7" }).mail.retentionDays).toBe(7);
    expect(() => readEnv({ OUTBOX_RETENTION_DAYS: "0" })).toThrow("OUTBOX_RETENTION_DAYS");
    expect(readEnv({ APPLICATION_UNDECIDED_DAYS: "90" }).applications.undecidedDays).toBe(90);
    expect(readEnv({}).applications.dataKey).toBeNull();
    expect(readEnv({ APPLICATION_DATA_KEY: "" }).applications.dataKey).toBeNull();
    expect(() => readEnv({ APPLICATION_DATA_KEY: Buffer.alloc(16).toString("base64") })).toThrow(
      "APPLICATION_DATA_KEY",
    );
    expect(() => readEnv({ APPLICATION_DATA_KEY: "secret" })).toThrow("APPLICATION_DATA_KEY");
    expect(readEnv({ APPLICATION_RETENTION_DAYS: "30" }).applications.retentionDays).toBe(30);
    expect(readEnv({ APPLICATION_DOCUMENT_QUOTA_MB: "100" }).applications.documentQuotaMb).toBe(
      100,
    );
    expect(() => readEnv({ APPLICATION_DOCUMENT_QUOTA_MB: "5" })).toThrow(
      "APPLICATION_DOCUMENT_QUOTA_MB",
    );
    expect(() => readEnv({ APPLICATION_RETENTION_DAYS: "0" })).toThrow(
      "APPLICATION_RETENTION_DAYS",
    );
  });
});
