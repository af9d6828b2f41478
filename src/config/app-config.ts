import { envNameFor, flag, integer, oneOf, optionalText, text } from './setting';
import type { Setting, ValueOf } from './setting';

export type AppRole = 'all' | 'api' | 'worker';

/** A carrier password key (CARRIER_SECRET_KEY, the old key of carrier:rekey): 32 bytes as hex or base64. */
export const CARRIER_KEY = {
  pattern: /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/,
  message: 'must be 32 bytes as 64 hex digits or 44 characters of base64 (openssl rand -base64 32)',
};

const HTTP_URL = /^https?:\/\/[^\s/]+(\/[^\s]*[^/\s])?$/;
const HTTP_URL_MESSAGE = 'must be an http(s) URL without a trailing slash';

/**
 * Every setting the service reads, declared once each: default, accepted values, and why it exists. The
 * environment variable is the name in upper snake case (`smppTpsPerBind` → `SMPP_TPS_PER_BIND`); those
 * names are part of the operator contract (README, docs/). loadConfig is the only reader of process.env;
 * tests build a config with smaller tunables.
 */
export const SETTINGS = {
  // --- Process ---
  port: integer({ default: 3000, min: 0, max: 65535, why: 'HTTP port (a worker serves /health and /metrics on it)' }),
  databaseUrl: text({
    default: 'postgres://postgres@127.0.0.1:5432/sms',
    // Several hosts as libpq writes them (h1:5432,h2:5432); target_session_attrs any, read-write or primary.
    pattern: /^postgres(ql)?:\/\/(?![^#]*[?&]target_session_attrs=(?!(any|read-write|primary)(&|$))).+/,
    message: 'must be a postgres:// URL (several host:port separated by commas; target_session_attrs any, read-write or primary)',
    why: 'The PostgreSQL database, the source of truth; list a failover pair as h1:5432,h2:5432/sms?target_session_attrs=read-write',
  }),
  databasePoolSize: integer({ default: 20, min: 1, max: 200, why: 'Connections per process' }),
  databasePoolMin: integer({
    default: 10,
    min: 0,
    max: 200,
    why: 'Connections each service process opens before it starts work and keeps open when idle (at most DATABASE_POOL_SIZE), so a burst does not wait for PostgreSQL to start backends',
  }),
  redisUrl: text({
    default: 'redis://127.0.0.1:6379',
    pattern: /^rediss?:\/\/[^/]+(\/\d+)?\/?$/,
    message: 'must be a redis:// URL with an optional /N database index',
    why: 'Redis: queues, in-flight counters and caches (nothing that cannot be rebuilt)',
  }),
  redisPrefix: text({
    default: 'sms',
    pattern: /^[A-Za-z0-9:_.-]{1,64}$/,
    message: 'must be 1-64 characters of letters, digits, : _ . -',
    why: 'Prefix of every Redis key this service writes, so several deployments or test runs share one Redis',
  }),
  appRole: oneOf<AppRole>({ default: 'all', values: ['all', 'api', 'worker'], why: 'What this process runs: the API, the delivery workers, or both' }),
  nodeEnv: oneOf<string>({ default: 'development', values: ['development', 'production', 'test'], why: 'production requires a real SMSC' }),
  logLevel: oneOf<string>({
    default: 'info',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    message: 'must be a pino level or silent',
    why: 'Least severe level written to the log',
  }),
  metricsEnabled: flag({ default: true, why: 'Serve Prometheus metrics at /metrics' }),
  docsEnabled: flag({ default: true, why: 'Serve the OpenAPI document and the reference pages' }),

  // --- API limits (interface: Limits) ---
  inflightLimit: integer({ default: 5, min: 1, max: 1000, why: 'Requests in flight per account across all instances' }),
  inflightSlotTtlMs: integer({ default: 30_000, min: 1000, max: 3_600_000, why: 'How long an in-flight slot survives without a heartbeat (bounds what a crashed instance holds)' }),
  bodyLimitBytes: integer({ default: 32 * 1024 * 1024, min: 1024, max: 256 * 1024 * 1024, why: 'Largest request body; 32 MB admits a 10000-message batch' }),
  pageUploadLimitBytes: integer({
    default: 16 * 1024 * 1024,
    min: 1024,
    max: 256 * 1024 * 1024,
    why: 'Largest file upload on a dashboard page (a contacts CSV; 16 MB holds about 300000 contacts); never above BODY_LIMIT_BYTES in effect',
  }),
  dependencyTimeoutMs: integer({ default: 3000, min: 100, max: 60_000, why: 'A PostgreSQL or Redis call slower than this answers 503' }),
  idempotencyTtlMs: integer({ default: 24 * 60 * 60 * 1000, min: 1000, why: 'How long a response is replayed for its Idempotency-Key (interface: 24 hours)' }),
  idempotencyPurgeIntervalMs: integer({ default: 10 * 60 * 1000, min: 0, max: 86_400_000, why: 'How often expired Idempotency-Key records are deleted (0: never)' }),

  // --- Keyword rules (src/keywords) ---
  autoReplyLimit: integer({
    default: 3,
    min: 1,
    max: 100,
    why: 'Auto-replies one number may get from an account per AUTO_REPLY_WINDOW_MS: the loop guard against another machine answering ours',
  }),
  autoReplyWindowMs: integer({
    default: 10 * 60 * 1000,
    min: 1000,
    max: 86_400_000,
    why: 'The loop guard’s window; a reply repeating an auto-reply sent within it is never answered',
  }),

  // --- Contact imports (contact-imports/) ---
  contactImportMaxAttempts: integer({
    default: 5,
    min: 1,
    max: 100,
    why: 'Runs an import gets (a run that crashed its worker counts) before it fails with its last error as the reason, so a file that always fails cannot loop',
  }),
  contactImportLockMs: integer({
    default: 30_000,
    min: 1000,
    max: 600_000,
    why: "How long a running import's job stays locked without its worker renewing it: a killed worker's import is handed to another within about twice this",
  }),
  contactImportRetentionDays: integer({
    default: 30,
    min: 1,
    max: 3650,
    why: 'Finished imports (their report and line lists) are deleted this many days after they finish; the contacts stay',
  }),
  contactImportDraftHours: integer({
    default: 24,
    min: 1,
    max: 720,
    why: 'An upload never started from the page is deleted, with its file, this many hours after it was uploaded',
  }),
  contactImportPurgeIntervalMs: integer({
    default: 60 * 60 * 1000,
    min: 0,
    max: 86_400_000,
    why: 'How often finished imports past their retention and stale drafts are deleted (0: never)',
  }),

  // --- Links and opt-out pages ---
  shortLinkBase: text({
    default: 'http://localhost:3000',
    pattern: HTTP_URL,
    message: HTTP_URL_MESSAGE,
    why: 'Base of short links and the {optout} link ({base}/o/{code}); no trailing slash. Unset: http://localhost:$PORT',
  }),
  linkRetentionDays: integer({ default: 180, min: 1, max: 3650, why: 'Short links stop redirecting this many days after their message was sent' }),
  shortLinkRetentionDays: integer({
    default: 396,
    // Spam Act: an opt-out link keeps working at least 30 days after the message.
    min: 30,
    max: 3650,
    why: 'Short links (and their click counts) are deleted this many days after they were made (13 months by default, with the messages); keep it at or above LINK_RETENTION_DAYS, since an opt-out link past LINK_RETENTION_DAYS still opts out',
  }),
  retentionPurgeIntervalMs: integer({
    default: 60 * 60 * 1000,
    min: 0,
    max: 86_400_000,
    why: 'How often short links and webhook records past their retention are deleted, in batches (0: never)',
  }),
  partitionMaintenanceIntervalMs: integer({
    default: 60 * 60 * 1000,
    min: 0,
    max: 86_400_000,
    why: 'How often the time partitions ahead are made and those past their retention dropped (0: never); one worker runs it at a time',
  }),
  messageRetentionMonths: integer({
    default: 13,
    min: 1,
    max: 120,
    why: 'Messages, their parts and delivery receipts are dropped a whole month at a time once the month is this many months old',
  }),
  inboundRetentionMonths: integer({
    default: 13,
    min: 1,
    max: 120,
    why: 'Inbound messages (replies, STOP) are dropped a whole month at a time once the month is this many months old',
  }),
  clickRetentionMonths: integer({
    default: 13,
    min: 1,
    max: 120,
    why: "Link clicks by quarter hour (a send's click report over time) are dropped a whole month at a time once the month is this many months old",
  }),
  clickFoldIntervalMs: integer({ default: 5000, min: 100, max: 3_600_000, why: "How often appended clicks are folded into each link's counters" }),
  optoutAttemptsPerIp: integer({ default: 10, min: 1, max: 100_000, why: 'Opt-out form submissions allowed per client address in each window' }),
  optoutAttemptWindowMs: integer({ default: 15 * 60 * 1000, min: 1000, max: 86_400_000, why: 'The window of the opt-out and short-link limits' }),
  optoutMissesPerIp: integer({
    default: 30,
    min: 1,
    max: 100_000,
    why: 'Unknown opt-out codes one client address may ask for per window before its opt-out pages answer 429 (codes cannot be guessed at scale)',
  }),
  shortLinkMissesPerIp: integer({
    default: 30,
    min: 1,
    max: 100_000,
    why: 'Unknown short-link codes one client address may follow per window before its short links answer 429 (codes cannot be guessed at scale)',
  }),

  // --- Carrier (SMPP). With no SMPP_HOST, live accounts use the simulator (development only). ---
  smppHost: optionalText({
    why: 'The SMSC of the one-carrier shortcut (carrier env); unset: only the carriers table, and in development with no carrier at all the built-in simulator',
  }),
  smppPort: integer({ default: 2775, min: 1, max: 65535, why: "The SMSC's port" }),
  smppSystemId: optionalText({ why: 'system_id of the bind' }),
  smppPassword: optionalText({ why: 'password of the bind (never logged)' }),
  smppTls: flag({ default: false, why: 'SMPP over TLS (the certificate is verified)' }),
  smppBinds: integer({ default: 4, min: 1, max: 64, why: 'Concurrent binds; throughput ≈ binds × window ÷ round trip, capped by SMPP_TPS_PER_BIND each' }),
  smppWindow: integer({ default: 100, min: 1, max: 1000, why: 'Outstanding submit_sm per bind' }),
  smppTpsPerBind: integer({ default: 0, min: 0, max: 100_000, why: 'Submissions per second per bind (carriers cap binds at 30-150); 0 = uncapped' }),
  smppEnquireLinkMs: integer({ default: 30_000, min: 100, max: 600_000, why: 'An enquire_link is sent after this long without any PDU from the SMSC' }),
  smppEnquireLinkTimeoutMs: integer({
    default: 2000,
    min: 100,
    max: 600_000,
    why: 'An enquire_link unanswered this long means the SMSC stopped answering (connection kept, nothing answered): the bind is dropped, its parts go to another carrier, and it reconnects. Sent also when submits await answers and the SMSC has said nothing for half this long, so a silent SMSC is found in about 1.5 times this',
  }),
  smppSubmitTimeoutMs: integer({
    default: 30_000,
    min: 100,
    max: 600_000,
    why: 'A request (bind, submit_sm, enquire_link) unanswered this long means the session is dead: it is dropped and reconnected',
  }),
  smppReconnectBaseMs: integer({ default: 500, min: 10, max: 600_000, why: 'First reconnect delay after a bind drops; doubles per failed attempt' }),
  smppReconnectMaxMs: integer({ default: 30_000, min: 10, max: 3_600_000, why: 'Longest reconnect delay' }),
  // --- Carriers as data (carrier:* and route:* commands; docs/carriers.md) ---
  carrierSecretKey: optionalText({
    ...CARRIER_KEY,
    why: 'Key (AES-256-GCM) that seals carrier passwords in the carriers table, so a database dump alone does not reveal them; unset: carrier:add refuses a password and workers cannot open table carriers',
  }),
  carrierSecretKeyPrevious: optionalText({
    ...CARRIER_KEY,
    why: "A worker's previous CARRIER_SECRET_KEY during a key rotation: it opens a carrier password that CARRIER_SECRET_KEY does not (one not yet resealed by carrier:rekey) and never seals; unset once carrier:rekey has run",
  }),
  carrierReloadMs: integer({
    default: 2000,
    min: 100,
    max: 600_000,
    why: 'How often a worker reads the carrier settings version (one row) to pick up carrier:* and route:* changes without a restart',
  }),

  // --- Carrier failover (routes with several carriers) ---
  carrierRetryAttempts: integer({
    default: 3,
    min: 0,
    max: 20,
    why: 'Times a part refused for now (throttled, queue full, system error) or left in doubt is sent again through another carrier of its route; after that its carrier retries it itself',
  }),
  carrierDownErrorPercent: integer({
    default: 50,
    min: 1,
    max: 100,
    why: 'A carrier is down when more than this percentage of its recent submits failed for now (throttled, queue full, system error, no answer)',
  }),
  carrierErrorWindowMs: integer({ default: 10_000, min: 100, max: 600_000, why: 'The recent submits CARRIER_DOWN_ERROR_PERCENT looks at: this long' }),
  carrierErrorMinSubmits: integer({ default: 20, min: 1, max: 100_000, why: 'Fewer submits than this in the window never make a carrier down' }),
  carrierHoldDownMs: integer({
    default: 30_000,
    min: 0,
    max: 3_600_000,
    why: 'A carrier that was down takes traffic again only after looking healthy this long; doubled (up to CARRIER_HOLD_DOWN_MAX_MS) when it fails again within its hold-down',
  }),
  carrierHoldDownMaxMs: integer({ default: 300_000, min: 0, max: 86_400_000, why: 'Longest hold-down of a carrier that keeps failing soon after coming back' }),

  // --- Dispatch ---
  testReceiptDelayMs: integer({ default: 5000, min: 0, max: 3_600_000, why: 'Delay of simulated receipts (test accounts; live accounts without an SMSC in development)' }),
  dispatchBatchSize: integer({ default: 1000, min: 1, max: 10_000, why: 'Messages claimed per dispatch step' }),
  dispatchConcurrency: integer({ default: 4, min: 1, max: 64, why: 'Dispatch jobs one worker runs at once' }),
  sweepIntervalMs: integer({
    default: 2000,
    min: 100,
    max: 600_000,
    why: 'How often the sweeper looks for due messages without a job, stale claims and unapplied receipts (and the webhook sweep runs)',
  }),
  receiptWaitMs: integer({
    default: 48 * 60 * 60 * 1000,
    min: 1000,
    max: 30 * 24 * 60 * 60 * 1000,
    why: 'A live part with no receipt this long after submission stops waiting for one: it reads unconfirmed and its message stays sent, settled (a receipt that comes later still applies)',
  }),
  receiptWaitCloseIntervalMs: integer({
    default: 60_000,
    min: 0,
    max: 3_600_000,
    why: 'How often the worker closes the receipt waits that are over (0: never; tests run it by hand)',
  }),
  claimTimeoutMs: integer({
    default: 30_000,
    min: 1000,
    max: 3_600_000,
    why: "A dispatcher whose lease (renewed every quarter of this) is older than this is dead: its unrecorded claims are taken back; a live one's never are",
  }),

  // --- Own-mobile confirmation texts (sent at the platform's cost: budgets against SMS pumping) ---
  ownMobileTextsPerAccountHour: integer({
    default: 5,
    min: 1,
    max: 100_000,
    why: 'Confirmation texts one account may have sent in an hour (a business registers a few staff mobiles)',
  }),
  ownMobileTextsPerAccountDay: integer({ default: 20, min: 1, max: 1_000_000, why: 'Confirmation texts one account may have sent in a day' }),
  ownMobileTextsPerKeyHour: integer({ default: 3, min: 1, max: 100_000, why: 'Confirmation texts one API key may have sent in an hour' }),
  ownMobileTextsPerKeyDay: integer({ default: 10, min: 1, max: 1_000_000, why: 'Confirmation texts one API key may have sent in a day' }),
  ownMobileTextsPerAddressHour: integer({
    default: 5,
    min: 1,
    max: 100_000,
    why: 'Confirmation texts requests from one client address may have sent in an hour, whatever the accounts',
  }),
  ownMobileTextsPerAddressDay: integer({ default: 20, min: 1, max: 1_000_000, why: 'Confirmation texts requests from one client address may have sent in a day' }),

  // --- Sending brake (src/sending-brake): sends held when an account's last hour far exceeds its own history ---
  sendingBrakeAllowance: integer({
    default: 1000,
    min: 1,
    max: 100_000_000,
    why: "Messages an account without history may send in an hour (its starting allowance, also the floor of every account's limit): above a first real campaign's trial sends, small enough that a leaked key on a new account cannot spend much before it is held",
  }),
  sendingBrakeMultiplier: integer({
    default: 10,
    min: 2,
    max: 1000,
    why: "An account's hourly limit is this many times its baseline (its busiest recent hour): ordinary peaks stay well under ten times last week's busiest hour; pumping through a stolen key does not",
  }),
  sendingBrakeHalfLifeHours: integer({
    default: 168,
    min: 1,
    max: 8760,
    why: 'How fast the baseline (the busiest recent hour) fades: halved each week by default, so a weekly campaign keeps its own level',
  }),
  operatorEmail: optionalText({
    pattern: /^[^\s@,]+@[^\s@,]+(\s*,\s*[^\s@,]+@[^\s@,]+)*$/,
    message: 'must be one email address or several separated by commas',
    why: "The platform's operators: emailed when an account's sending is paused by the brake (unset: only the account's owner is)",
  }),

  // --- Webhooks (interface: Webhooks) ---
  webhookAllowPrivate: flag({ default: false, why: 'Admit plain http and private, loopback and link-local addresses (tests, private networks)' }),
  webhookTimeoutMs: integer({ default: 5000, min: 100, max: 60_000, why: 'A delivery succeeds on any 2xx within this time (interface: 5 seconds)' }),
  webhookMaxRetries: integer({ default: 10, min: 0, max: 100, why: 'Retries after the first attempt (supplement: up to 10, so 11 attempts at most)' }),
  webhookRetryBaseMs: integer({ default: 60_000, min: 10, max: 86_400_000, why: 'First retry delay; doubles per retry' }),
  webhookRetryMaxMs: integer({ default: 3_600_000, min: 10, max: 86_400_000, why: 'Longest delay between retries' }),
  webhookHostConcurrency: integer({ default: 32, min: 1, max: 1000, why: 'Deliveries in flight to one receiving host at once, so one slow receiver cannot hold back others' }),
  webhookRetentionDays: integer({
    default: 30,
    min: 1,
    max: 3650,
    why: 'Webhook events and their delivery attempts are dropped a whole UTC day at a time, once the day is this many days old (GET /v1/webhook-deliveries and redelivery reach back this far)',
  }),
  webhookConcurrency: integer({ default: 8, min: 1, max: 256, why: 'Webhook delivery jobs one worker runs at once' }),

  // --- Pages (dashboard) and mail ---
  trustProxy: text({
    default: 'false',
    pattern: /^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
    message: 'must be true, false, a hop count or comma-separated addresses',
    why: "Which proxies to believe for the client's address and protocol: false (none), true (any), a hop count, or addresses/CIDRs",
  }),
  cookieSecure: oneOf({
    default: 'auto',
    values: ['auto', 'always', 'never'],
    why: 'auto: cookies are Secure when the request came over https (as the trusted proxy says); always; never (plain-http development only). Unset with NODE_ENV=production: always',
  }),
  dashboardUrl: text({
    default: 'http://localhost:3000',
    pattern: HTTP_URL,
    message: HTTP_URL_MESSAGE,
    why: 'Where people reach the dashboard; emailed links start with it. Unset: http://localhost:$PORT',
  }),
  twoFactorKey: optionalText({
    pattern: /^.{32,}$/,
    message: 'must be at least 32 characters (32 random bytes, e.g. base64)',
    why: "Key that encrypts users' TOTP secrets and signs remembered-device cookies; unset: a fixed development key (refused with NODE_ENV=production)",
  }),
  smtpUrl: optionalText({
    pattern: /^smtps?:\/\/.+/,
    message: 'must be an smtp:// or smtps:// URL',
    why: "SMTP server for the dashboard's emails (credentials in the URL); unset: emails are written to the log instead",
  }),
  mailFrom: text({
    default: 'SMS Platform <no-reply@localhost>',
    pattern: /^(.+<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
    message: 'must be an address, optionally with a name: Name <a@b.example>',
    why: 'Sender of the emails',
  }),

  liveStartingCredits: integer({
    default: 0,
    min: 0,
    max: 1_000_000,
    why: 'Free credits granted when an operator approves a test account going live (account:approve --starting-credits overrides it; 0: none)',
  }),
  signupEnabled: flag({
    default: true,
    why: 'Anyone may open a test account on the public sign-up page (false: the page is gone and accounts come only from the operator CLI)',
  }),

  // --- Sender identity ---
  systemSender: text({
    default: 'SMSVerify',
    pattern: /^((?=[A-Za-z0-9 ]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 ]{1,9}[A-Za-z0-9]|\d{3,15})$/,
    message: 'must be a Sender ID of 3-11 letters, digits and spaces with at least one letter, or 3-15 digits',
    why: "What the service's own texts (own-mobile confirmation links) are sent from",
  }),

  // --- Payments and purchases ---
  stripeSecretKey: optionalText({
    pattern: /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
    message: 'must be a Stripe secret key (sk_test_…, sk_live_…)',
    why: 'Stripe secret key; unset: the built-in simulated provider takes its place',
  }),
  stripeApiBase: optionalText({
    pattern: /^https?:\/\/[^\s/]+$/,
    message: 'must be an http(s) origin such as http://127.0.0.1:12111',
    why: "Where the Stripe SDK connects (tests: a local Stripe-compatible peer); unset: Stripe's own API",
  }),
  sellerName: text({ default: 'SMS Platform Pty Ltd', pattern: /^.{1,200}$/, message: 'must be 1-200 characters', why: 'The seller on tax invoices' }),
  sellerAbn: text({ default: '51824753556', pattern: /^\d{11}$/, message: 'must be 11 digits', why: "The seller's ABN on tax invoices" }),
  purchaseWaitMs: integer({ default: 10_000, min: 0, max: 600_000, why: 'How long a repeated purchase request waits for the first one before settling it itself' }),
  purchaseReconcileAfterMs: integer({
    default: 60_000,
    min: 0,
    max: 86_400_000,
    why: 'A purchase still unsettled after this long was interrupted (a crash, a lost answer): the reconciler settles it',
  }),
  purchaseJobsIntervalMs: integer({
    default: 60_000,
    min: 0,
    max: 86_400_000,
    why: 'How often the reconciler and the renewals run (0: never, e.g. in tests that run them by hand)',
  }),
  numberRenewalLeadDays: integer({ default: 7, min: 0, max: 60, why: 'Renewals charge this many days before a number expires' }),
  numberRenewalRetryHours: integer({ default: 24, min: 1, max: 720, why: 'A failed renewal is retried this often until the grace period ends' }),
  numberGraceDays: integer({ default: 14, min: 0, max: 365, why: 'Days after expiry that a number whose renewal failed is kept before it is released' }),
} satisfies Record<string, Setting<unknown>>;

type SettingValues = { -readonly [K in keyof typeof SETTINGS]: ValueOf<(typeof SETTINGS)[K]> };

/**
 * The validated settings, injected wherever a tunable is needed. A class (the injection token), whose
 * fields are the declarations above; `new AppConfig()` holds every default.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the class is the injection token; its fields come from SETTINGS
export interface AppConfig extends SettingValues {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class AppConfig {
  constructor() {
    for (const [key, setting] of Object.entries(SETTINGS)) (this as Record<string, unknown>)[key] = setting.default;
  }
}

/** The environment variable behind a setting. */
export function envName(key: keyof AppConfig): string {
  const setting: Setting<unknown> = SETTINGS[key];
  return setting.env ?? envNameFor(key);
}

export class ConfigError extends Error {}

/** TRUST_PROXY as Fastify's `trustProxy` option. */
export function trustProxyOption(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * A rejected value as the error shows it: a secret's value never (the error reaches logs), and a URL's
 * password masked, so a mistyped DATABASE_URL does not print the database password.
 */
export function shownValue(name: string, raw: string): string {
  if (/PASSWORD|SECRET|TOKEN|_KEY$/.test(name)) return '(hidden)';
  return JSON.stringify(raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)[^/@]*@/i, '$1***@'));
}

/** Builds and validates the config from an environment; every bad variable is named in the error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const config = new AppConfig();
  const values = config as unknown as Record<string, unknown>;
  const entries = Object.entries(SETTINGS) as Array<[keyof AppConfig, Setting<unknown>]>;
  const unreadable = new Map<string, string>();
  for (const [key, setting] of entries) {
    const raw = env[envName(key)];
    if (raw === undefined || raw === '') continue;
    const read = setting.read(raw);
    if ('complaint' in read) unreadable.set(key, `${envName(key)}=${shownValue(envName(key), raw)} ${read.complaint}`);
    else values[key] = read.value;
  }
  // Production cookies are Secure unless an operator says otherwise: behind a TLS-terminating proxy that is
  // not in TRUST_PROXY, auto would see plain http and send the session cookie without Secure.
  const cookieSecureSet = (env[envName('cookieSecure')] ?? '') !== '' || overrides.cookieSecure !== undefined;
  if (!cookieSecureSet && (overrides.nodeEnv ?? config.nodeEnv) === 'production') config.cookieSecure = 'always';
  Object.assign(config, overrides);
  // Links follow the port: unset, the dashboard and link bases name this service on its own port
  // (PORT=0, any free port, is known only once listening: the declared default stays).
  for (const key of ['dashboardUrl', 'shortLinkBase'] as const) {
    if ((env[envName(key)] ?? '') === '' && !(key in overrides) && config.port !== 0) values[key] = `http://localhost:${config.port}`;
  }
  const complaints: string[] = [];
  for (const [key, setting] of entries) {
    const complaint = unreadable.get(key) ?? setting.check(values[key]);
    if (complaint === null) continue;
    complaints.push(unreadable.has(key) ? complaint : `${envName(key)}=${shownValue(envName(key), String(values[key]))} ${complaint}`);
  }
  if (complaints.length > 0) throw new ConfigError(`Invalid configuration: ${complaints.join('; ')}`);
  const smpp = { SMPP_HOST: config.smppHost, SMPP_SYSTEM_ID: config.smppSystemId, SMPP_PASSWORD: config.smppPassword };
  const smppMissing = Object.keys(smpp).filter((k) => !smpp[k as keyof typeof smpp]);
  // Production sends through real carriers only: the SMPP_* one, or the carriers table (whose passwords only
  // CARRIER_SECRET_KEY opens). Half an SMPP_* carrier is a mistake, never a reason to fall back to the table.
  if (config.nodeEnv === 'production' && smppMissing.length > 0 && (smppMissing.length < 3 || !config.carrierSecretKey)) {
    throw new ConfigError(
      smppMissing.length < 3
        ? `Invalid configuration: ${smppMissing.join(' and ')} missing: SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD go together`
        : 'Invalid configuration: NODE_ENV=production needs a carrier: SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD, or CARRIER_SECRET_KEY for the carriers table (carrier:add); the simulator is for development only',
    );
  }
  // A previous key is the other half of a rotation: without the current one nothing is sealed under a new key.
  if (config.carrierSecretKeyPrevious && !config.carrierSecretKey) {
    throw new ConfigError('Invalid configuration: CARRIER_SECRET_KEY_PREVIOUS is set without CARRIER_SECRET_KEY (the previous key only opens passwords during a key rotation)');
  }
  // The development key is in the source: with it, anyone who reads a database copy can open every TOTP secret.
  if (config.nodeEnv === 'production' && !config.twoFactorKey) {
    throw new ConfigError(
      'Invalid configuration: TWO_FACTOR_KEY is required with NODE_ENV=production (32+ random characters, e.g. openssl rand -base64 32; it encrypts two-factor secrets)',
    );
  }
  return config;
}

/** What start-up warns about: settings that run, but leave the service weaker than it should be in production. */
export function startupWarnings(config: AppConfig): string[] {
  const warnings: string[] = [];
  if (config.nodeEnv !== 'production') return warnings;
  if (config.cookieSecure === 'never') warnings.push('COOKIE_SECURE=never with NODE_ENV=production: session cookies are sent without Secure, over plain http too');
  else if (config.cookieSecure === 'auto' && config.trustProxy === 'false')
    warnings.push(
      'COOKIE_SECURE=auto without TRUST_PROXY in production: behind a TLS-terminating proxy every request looks like plain http and session cookies are sent without Secure',
    );
  return warnings;
}
