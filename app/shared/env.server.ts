import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { LOG_LEVELS, type LogLevel } from "./logger.server";

// Environment is read and validated once at start; everything else receives the typed result.
/** true/1, false/0, or `undefined` when not given (or empty). */
const optionalFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1"));

/** A URL, or not set (an empty value counts as not set). */
const optionalUrl = (example: string) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .url({ error: `must be a URL such as ${example}` })
      .optional(),
  );

/** A whole number from `min` to `max`, with one message for every way of missing it. */
const wholeNumber = (fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER) => {
  const error =
    max === Number.MAX_SAFE_INTEGER
      ? `must be a whole number, at least ${min}`
      : `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error })
    .int({ error })
    .min(min, { error })
    .max(max, { error })
    .default(fallback);
};
const positiveInt = (fallback: number) => wholeNumber(fallback);

/** A number above zero (fractions allowed). */
const positiveNumber = (fallback: number, max = Number.MAX_SAFE_INTEGER) => {
  const error = `must be a number above 0${max < Number.MAX_SAFE_INTEGER ? ` and at most ${max}` : ""}`;
  return z.coerce.number({ error }).positive({ error }).max(max, { error }).default(fallback);
};

/** Express's own names for address ranges, usable in TRUST_PROXY. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: which reverse proxies may tell the client's address (X-Forwarded-For), so that
 * per-client limits count clients and not the proxy. Off by default: without a proxy, anyone
 * could otherwise pick their own address. A number of proxy hops, or their addresses/ranges.
 */
const trustProxy = z
  .string()
  .default("")
  .transform((raw, ctx): false | number | string[] => {
    const value = raw.trim().toLowerCase();
    if (value === "" || value === "false" || value === "0") return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(",").map((e) => e.trim());
    const bad = entries.find((e) => !PROXY_RANGES.has(e) && !isAddressOrRange(e));
    if (value === "true" || bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        message:
          value === "true"
            ? "true would let any client choose its own address; give the number of proxies in front of the server (e.g. 1) or their addresses"
            : `"${bad}" is not a number of proxies, an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
      });
      return z.NEVER;
    }
    return entries;
  });

function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A data key setting: 32 bytes in base64, or unset (empty counts as unset). */
const dataKeySetting = () =>
  z
    .string()
    .refine(
      (v) =>
        /^[A-Za-z0-9+/]+={0,2}$/.test(v.trim()) && Buffer.from(v.trim(), "base64").length === 32,
      { error: "must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)" },
    )
    .optional()
    .or(z.literal("").transform(() => undefined));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: wholeNumber(3000, 0, 65535),
  // Outside production only this computer may connect (the development sign-in trusts anyone).
  HOST: z.string().optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalUrl("postgres://user:password@host:5432/database"),
  SEED_DEMO: optionalFlag,
  PUBLIC_URL: optionalUrl("https://leasing.example.com"),
  OIDC_ISSUER: z.string().url().default("https://accounts.google.com"),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_PROVIDER_NAME: z.string().optional(),
  ADMIN_EMAILS: z.string().default(""),
  SESSION_IDLE_HOURS: positiveNumber(12),
  // A staff member's session ends after this long without a request (docs/behaviour.md §6).
  STAFF_SESSION_HOURS: positiveNumber(12),
  SESSION_MAX_DAYS: positiveNumber(7),
  TRUST_PROXY: trustProxy,
  // Per client address (see TRUST_PROXY). High enough for an office behind one address, low
  // enough to stop a script; raised only by load tests and benchmarks.
  SIGN_IN_RATE_LIMIT: positiveInt(60),
  WRITE_RATE_LIMIT: positiveInt(300),
  // Page renders that miss the page cache (docs/decisions/0050-canonical-urls-and-render-limit.md):
  // a person reads kept pages, and fresh renders come only after a change or a new URL.
  RENDER_RATE_LIMIT: positiveInt(120),
  LIVE_STREAMS_PER_CLIENT: positiveInt(20),
  LIVE_STREAMS_TOTAL: positiveInt(1000),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` })
    .default("info"),
  // SIGTERM/SIGINT: how long requests in flight may take to finish before the server exits anyway.
  SHUTDOWN_TIMEOUT_SECONDS: positiveNumber(10, 3600),
  // Photos in an S3-compatible bucket instead of DATA_DIR/images (docs/decisions/0038-object-storage.md);
  // credentials, region and endpoint are the AWS SDK's own variables (AWS_REGION, …).
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "not a bucket name (3-63 of a-z, 0-9, . and -)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  S3_FORCE_PATH_STYLE: optionalFlag,
  // The trash (removed, deleted and history-only photos) in a bucket no CDN serves
  // (docs/decisions/0052-trash-in-a-private-bucket.md); required with S3_BUCKET + PHOTO_BASE_URL.
  S3_PRIVATE_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "not a bucket name (3-63 of a-z, 0-9, . and -)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Outgoing e-mail (docs/decisions/0062-outbox-for-outgoing-mail.md): without SMTP_URL nothing is
  // sent and staff read the messages at /admin/outbox.
  SMTP_URL: z
    .string()
    .refine(
      (u) => /^smtps?:\/\/[^\s/]+/i.test(u),
      "must be smtp://user:pass@host:587 or smtps://...",
    )
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Leads (docs/behaviour.md §27): inquiries per client address per hour; who is told of each
  // new one (default: the office e-mail of the site settings); days a closed lead is kept.
  INQUIRY_RATE_LIMIT: positiveInt(10),
  INBOX_NOTIFY_EMAILS: z
    .string()
    .default("")
    .refine(
      (v) =>
        v
          .split(",")
          .map((a) => a.trim())
          .filter(Boolean)
          .every((a) => /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/.test(a)),
      "must be e-mail addresses separated by commas",
    ),
  LEAD_RETENTION_DAYS: wholeNumber(365, 1, 36_500),
  // 'Activity' keeps its events this long (docs/behaviour.md §6).
  ACTIVITY_RETENTION_DAYS: wholeNumber(400, 1, 36_500),
  // Listings that stay true (docs/behaviour.md §30): days an available property may go without
  // its availability being confirmed before it is 'Stale'.
  STALE_AFTER_DAYS: wholeNumber(14, 1, 3650),
  // Online applications (docs/decisions/0071): the key that seals them (32 bytes,
  // base64), and the days they are kept after a decision or a withdrawal.
  APPLICATION_DATA_KEY: dataKeySetting(),
  // The key before APPLICATION_DATA_KEY while rotating (docs/operations.md): opens what it sealed.
  APPLICATION_DATA_KEY_PREVIOUS: dataKeySetting(),
  APPLICATION_RETENTION_DAYS: wholeNumber(180, 1, 36_500),
  // Mail to addresses nobody confirmed (docs/behaviour.md §26): per recipient a day, in all an hour.
  UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY: wholeNumber(5, 1, 1000),
  UNCONFIRMED_MAIL_PER_HOUR: wholeNumber(100, 1, 1_000_000),
  APPLICATION_DOCUMENT_QUOTA_MB: wholeNumber(40, 10, 10_000),
  // Days a submitted application nobody decided is kept after its last change, and days sent or
  // failed e-mail stays in the outbox (docs/decisions/0075-erasure-reaches-everything.md).
  APPLICATION_UNDECIDED_DAYS: wholeNumber(180, 1, 36_500),
  OUTBOX_RETENTION_DAYS: wholeNumber(30, 1, 36_500),
  MAIL_FROM: z
    .string()
    .refine((v) => /^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(v.trim()), {
      error: 'must be an address such as "Leasing" <office@example.com>',
    })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Pages point their photos here (a CDN in front of the bucket) instead of at /images.
  PHOTO_BASE_URL: z
    .string()
    .url()
    .refine((u) => /^https?:/.test(u), "must be an http(s) URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

/**
 * A bad environment: one line per bad variable, naming it and what it must be (never its
 * value, which may hold a password). `npm start` prints them and exits with 78 (EX_CONFIG).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

export type Env = {
  nodeEnv: "development" | "production" | "test";
  /** Strict-Transport-Security on every response: production reached over https only. */
  strictTransportSecurity: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * SEED_DEMO: `undefined` when not given (demo listings only in a newly created embedded
   * database), `true` (also in an existing or PostgreSQL one), `false` (never). Once at most.
   */
  seedDemo: boolean | undefined;
  /** The site's origin as visitors reach it (redirect URIs, absolute links). */
  publicUrl: string;
  /**
   * No PUBLIC_URL: a trial on this computer, reached as localhost or 127.0.0.1 alike
   * (docs/configuration.md, PUBLIC_URL).
   */
  trial: boolean;
  /** Set when an OIDC client is configured; otherwise the development provider may stand in. */
  oidc: { issuer: string; clientId: string; clientSecret: string; providerName: string } | null;
  /** Built-in development identity provider: only without OIDC settings and with NODE_ENV=development. */
  devIdentityProvider: boolean;
  adminEmails: string[];
  /** ACTIVITY_RETENTION_DAYS: how long 'Activity' keeps an event. */
  activityRetentionDays: number;
  session: {
    idleMs: number;
    /** Staff sessions: STAFF_SESSION_HOURS without a request. */
    staffIdleMs: number;
    maxMs: number;
    secureCookie: boolean;
    cookieName: string;
  };
  /** Express "trust proxy": false, a number of hops, or proxy addresses and ranges. */
  trustProxy: false | number | string[];
  logLevel: LogLevel;
  /** SIGTERM/SIGINT: the longest wait for requests in flight before exiting anyway. */
  shutdownTimeoutMs: number;
  /**
   * Outgoing e-mail: SMTP_URL (null: nothing is sent, staff read /admin/outbox), MAIL_FROM,
   * OUTBOX_RETENTION_DAYS (sent or failed mail is deleted after) and the caps on mail to
   * unconfirmed addresses (UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY and _PER_HOUR).
   */
  mail: {
    smtpUrl: string | null;
    from: string;
    retentionDays: number;
    unconfirmed: { perAddressPerDay: number; perHour: number };
  };
  /**
   * INQUIRY_RATE_LIMIT (per client per hour), INBOX_NOTIFY_EMAILS (empty: the office e-mail of
   * the site settings) and LEAD_RETENTION_DAYS (after a lead is closed).
   */
  leads: { inquiriesPerHour: number; notify: string[]; retentionDays: number };
  /** STALE_AFTER_DAYS: an available property not confirmed for longer is 'Stale' (§30). */
  staleAfterDays: number;
  /**
   * APPLICATION_DATA_KEY (null: made into DATA_DIR outside production; applications refused in
   * production), APPLICATION_RETENTION_DAYS (after a decision or a withdrawal) and
   * APPLICATION_DOCUMENT_QUOTA_MB (an application's documents, all adults', stored at once) and
   * APPLICATION_UNDECIDED_DAYS (a submitted application never decided, after its last change).
   */
  applications: {
    dataKey: string | null;
    dataKeyPrevious?: string | null;
    retentionDays: number;
    documentQuotaMb: number;
    undecidedDays: number;
  };
  limits: {
    /** Sign-in starts (GET /auth/login) per client per 10 minutes. */
    signInsPer10Minutes: number;
    /** Writes (any method but GET, HEAD, OPTIONS) per client per minute. */
    writesPerMinute: number;
    /** Page renders that miss the page cache, per client per minute (admins are not counted). */
    rendersPerMinute: number;
    /** Open /live streams per client, and on the whole server. */
    liveStreamsPerClient: number;
    liveStreamsTotal: number;
  };
  /**
   * Photos in this bucket (S3_BUCKET) rather than under DATA_DIR/images; the trash in
   * `privateBucket` (S3_PRIVATE_BUCKET, else the same bucket).
   */
  s3: { bucket: string; privateBucket: string; forcePathStyle: boolean } | null;
  /** Base URL pages use for photos (PHOTO_BASE_URL, no trailing slash), else the site's /images. */
  photoBaseUrl: string | undefined;
};

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const byVariable = new Map<string, string[]>();
    for (const issue of parsed.error.issues) {
      const name = issue.path.join(".");
      byVariable.set(name, [...(byVariable.get(name) ?? []), issue.message]);
    }
    throw new ConfigError(
      [...byVariable].map(([name, messages]) => `${name}: ${messages.join("; ")}`),
    );
  }
  const e = parsed.data;
  const privateBucketProblem = s3PrivateBucketProblem(e);
  if (privateBucketProblem) throw new ConfigError([`S3_PRIVATE_BUCKET: ${privateBucketProblem}`]);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  const oidc =
    e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
      ? {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET,
          providerName:
            e.OIDC_PROVIDER_NAME ??
            (new URL(e.OIDC_ISSUER).hostname === "accounts.google.com" ? "Google" : "SSO"),
        }
      : null;
  // Secure (and so __Host-) cookies need https; a plain-http loopback origin is for local use.
  const secureCookie = e.NODE_ENV === "production" && publicUrl.startsWith("https://");
  return {
    nodeEnv: e.NODE_ENV,
    strictTransportSecurity: secureCookie,
    port: e.PORT,
    // Every interface only for a production site that says where it is served: a start with the
    // default PUBLIC_URL is a trial on this computer, which then also gets the online application
    // (docs/configuration.md, HOST; docs/behaviour.md §32).
    host: e.HOST || (e.NODE_ENV === "production" && e.PUBLIC_URL ? "0.0.0.0" : "127.0.0.1"),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    seedDemo: e.SEED_DEMO,
    publicUrl,
    trial: e.PUBLIC_URL === undefined,
    oidc,
    // Exactly development: test, staging-like or mistyped setups never get the sign-in-as-anyone page.
    devIdentityProvider: !oidc && e.NODE_ENV === "development",
    adminEmails: e.ADMIN_EMAILS.split(",")
      .map((a) => a.trim().toLowerCase())
      .filter(Boolean),
    session: {
      idleMs: e.SESSION_IDLE_HOURS * 3_600_000,
      staffIdleMs: e.STAFF_SESSION_HOURS * 3_600_000,
      maxMs: e.SESSION_MAX_DAYS * 86_400_000,
      secureCookie,
      cookieName: secureCookie ? "__Host-session" : "session",
    },
    activityRetentionDays: e.ACTIVITY_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    limits: {
      signInsPer10Minutes: e.SIGN_IN_RATE_LIMIT,
      writesPerMinute: e.WRITE_RATE_LIMIT,
      rendersPerMinute: e.RENDER_RATE_LIMIT,
      liveStreamsPerClient: e.LIVE_STREAMS_PER_CLIENT,
      liveStreamsTotal: e.LIVE_STREAMS_TOTAL,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          privateBucket: e.S3_PRIVATE_BUCKET ?? e.S3_BUCKET,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
        }
      : null,
    photoBaseUrl: e.PHOTO_BASE_URL?.replace(/\/+$/, ""),
    leads: {
      inquiriesPerHour: e.INQUIRY_RATE_LIMIT,
      notify: e.INBOX_NOTIFY_EMAILS.split(",")
        .map((a) => a.trim())
        .filter(Boolean),
      retentionDays: e.LEAD_RETENTION_DAYS,
    },
    staleAfterDays: e.STALE_AFTER_DAYS,
    applications: {
      dataKey: e.APPLICATION_DATA_KEY?.trim() ?? null,
      dataKeyPrevious: e.APPLICATION_DATA_KEY_PREVIOUS?.trim() ?? null,
      retentionDays: e.APPLICATION_RETENTION_DAYS,
      documentQuotaMb: e.APPLICATION_DOCUMENT_QUOTA_MB,
      undecidedDays: e.APPLICATION_UNDECIDED_DAYS,
    },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM?.trim() ?? `no-reply@${new URL(publicUrl).hostname}`,
      unconfirmed: {
        perAddressPerDay: e.UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY,
        perHour: e.UNCONFIRMED_MAIL_PER_HOUR,
      },
      retentionDays: e.OUTBOX_RETENTION_DAYS,
    },
  };
}

/**
 * A CDN in front of S3_BUCKET (PHOTO_BASE_URL) serves every key in it, so with both the trash
 * must be in another bucket (docs/decisions/0052-trash-in-a-private-bucket.md).
 */
function s3PrivateBucketProblem(e: {
  S3_BUCKET?: string;
  S3_PRIVATE_BUCKET?: string;
  PHOTO_BASE_URL?: string;
}): string | null {
  if (e.S3_PRIVATE_BUCKET && !e.S3_BUCKET) return "is used only with S3_BUCKET";
  if (e.S3_PRIVATE_BUCKET && e.S3_PRIVATE_BUCKET === e.S3_BUCKET) {
    return "must be another bucket than S3_BUCKET";
  }
  if (e.S3_BUCKET && e.PHOTO_BASE_URL && !e.S3_PRIVATE_BUCKET) {
    return "required with S3_BUCKET and PHOTO_BASE_URL: a bucket nothing public serves, for removed and deleted photos";
  }
  return null;
}
