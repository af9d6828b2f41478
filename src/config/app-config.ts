import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

export type AppRole = 'all' | 'api' | 'worker';

/**
 * Every setting the service reads, typed and validated once at boot. This class is the only reader of
 * process.env (through loadConfig); tests build one with smaller tunables.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  port = 3000;

  @IsString()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: '$property must be a postgres:// URL' })
  databaseUrl = 'postgres://postgres@127.0.0.1:5432/sms';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  databasePoolSize = 20;

  @IsString()
  @Matches(/^rediss?:\/\/[^/]+(\/\d+)?\/?$/, { message: '$property must be a redis:// URL with an optional /N database index' })
  redisUrl = 'redis://127.0.0.1:6379';

  /** Prefix of every Redis key this service writes (queues, in-flight counters), so several deployments or test runs share one Redis. */
  @IsString()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: '$property must be 1-64 characters of letters, digits, : _ . -' })
  redisPrefix = 'sms';

  @IsIn(['all', 'api', 'worker'], { message: '$property must be one of all, api, worker' })
  appRole: AppRole = 'all';

  @IsIn(['development', 'production', 'test'], { message: '$property must be one of development, production, test' })
  nodeEnv = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: '$property must be a pino level or silent' })
  logLevel = 'info';

  /** Requests in flight per account across all instances (interface: Limits). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  inflightLimit = 5;

  /** How long an in-flight slot survives without a heartbeat; bounds what a crashed instance can hold. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  inflightSlotTtlMs = 30_000;

  /** The supplement fixes the body limit at 32 MB, which admits a 10000-message batch. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(256 * 1024 * 1024)
  bodyLimitBytes = 32 * 1024 * 1024;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  dependencyTimeoutMs = 3000;

  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  docsEnabled = true;

  /** Base of short links and the {optout} link (`{base}/o/{code}`); no trailing slash. */
  @IsString()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*[^/\s])?$/, { message: '$property must be an http(s) URL without a trailing slash' })
  shortLinkBase = 'http://localhost:3000';

  /** Short links stop redirecting this many days after their message was sent (per-recipient opt-out links then ask for the number). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  linkRetentionDays = 180;

  /** How often appended link clicks are folded into each link's counters. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  clickFoldIntervalMs = 5000;

  /** Opt-out form submissions allowed per IP address in each window. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  optoutAttemptsPerIp = 10;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  optoutAttemptWindowMs = 15 * 60 * 1000;

  /**
   * Unknown opt-out codes one IP address may ask for in each window; past that every opt-out page from
   * it is refused (429) until the window ends, so codes cannot be guessed at scale (a recipient's page
   * names the account and the last digits of the number).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  optoutMissesPerIp = 30;

  /** How long a successful response is replayed for its Idempotency-Key (interface: 24 hours). */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  idempotencyTtlMs = 24 * 60 * 60 * 1000;

  // --- Carrier (SMPP). With no SMPP_HOST, live accounts use the simulator (development only). ---
  @IsOptional()
  @IsString()
  smppHost?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  smppPort = 2775;

  @IsOptional()
  @IsString()
  smppSystemId?: string;

  @IsOptional()
  @IsString()
  smppPassword?: string;

  @Transform(toBool)
  @IsBoolean()
  smppTls = false;

  /** Concurrent binds; throughput ≈ binds × window ÷ round trip, capped by SMPP_TPS_PER_BIND each. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  smppBinds = 4;

  /** Outstanding submit_sm per bind. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  smppWindow = 100;

  /** Submissions per second per bind (carriers cap binds at 30-150); 0 = uncapped. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  smppTpsPerBind = 0;

  /** Delay of simulated receipts (test accounts; live accounts without an SMSC in development). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  testReceiptDelayMs = 5000;

  /** Messages claimed per dispatch step. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  dispatchBatchSize = 1000;

  /** Dispatch jobs one worker runs at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  dispatchConcurrency = 4;

  /** How often the sweeper looks for due messages without a job, stale claims and unapplied receipts. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  sweepIntervalMs = 2000;

  /**
   * A dispatcher whose lease (renewed every quarter of this) is older than this is dead: its claims with
   * no recorded outcome are taken back. A live dispatcher's claims are never taken, however slow.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  claimTimeoutMs = 30_000;

  @Transform(toBool)
  @IsBoolean()
  metricsEnabled = true;

  // --- Webhooks (names are part of the contract) ---
  /** Admits plain http and private, loopback and link-local addresses (tests, private networks). */
  @Transform(toBool)
  @IsBoolean()
  webhookAllowPrivate = false;

  /** A delivery succeeds on any 2xx within this time (interface: 5 seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  webhookTimeoutMs = 5000;

  /** Retries after the first attempt (supplement: up to 10, so 11 attempts at most). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100)
  webhookMaxRetries = 10;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  webhookRetryBaseMs = 60_000;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  webhookRetryMaxMs = 3_600_000;

  /** Deliveries in flight to one receiving host at once, so one slow receiver cannot hold back others. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  webhookHostConcurrency = 32;

  // --- Pages (dashboard) and mail ---
  /**
   * Which proxies to believe for the client's address and protocol (X-Forwarded-For/-Proto): `false`
   * (none, the default), `true` (any), a hop count, or comma-separated addresses/CIDRs.
   */
  @IsString()
  @Matches(/^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, { message: '$property must be true, false, a hop count or comma-separated addresses' })
  trustProxy = 'false';

  /** `auto`: cookies are Secure when the request came over https (as the trusted proxy says); `always`; `never` (plain-http development only). */
  @IsIn(['auto', 'always', 'never'], { message: '$property must be one of auto, always, never' })
  cookieSecure: 'auto' | 'always' | 'never' = 'auto';

  /** Where people reach the dashboard; emailed links start with it. No trailing slash. */
  @IsString()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*[^/\s])?$/, { message: '$property must be an http(s) URL without a trailing slash' })
  dashboardUrl = 'http://localhost:3000';

  /** SMTP server for the dashboard's emails (smtp:// or smtps://, credentials in the URL); unset: emails are written to the log instead. */
  @IsOptional()
  @IsString()
  @Matches(/^smtps?:\/\/.+/, { message: '$property must be an smtp:// or smtps:// URL' })
  smtpUrl?: string;

  @IsString()
  @Matches(/^(.+<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, { message: '$property must be an address, optionally with a name: Name <a@b.example>' })
  mailFrom = 'SMS Platform <no-reply@localhost>';

  // --- Sender identity ---
  /**
   * What the service's own texts (own-mobile confirmation links) are sent from: an alphanumeric Sender ID
   * (3-11 letters, digits and spaces, at least one letter) or a number (3-15 digits) the carrier accepts from us.
   */
  @IsString()
  @Matches(/^((?=[A-Za-z0-9 ]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 ]{1,9}[A-Za-z0-9]|\d{3,15})$/, {
    message: '$property must be a Sender ID of 3-11 letters, digits and spaces with at least one letter, or 3-15 digits',
  })
  systemSender = 'SMSVerify';

  // --- Payments and purchases ---
  /** Stripe secret key; unset: the built-in simulated provider (development and test accounts) takes its place. */
  @IsOptional()
  @IsString()
  @Matches(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, { message: '$property must be a Stripe secret key (sk_test_…, sk_live_…)' })
  stripeSecretKey?: string;

  /** Where the Stripe SDK connects (tests: a local Stripe-compatible peer); unset: Stripe's own API. */
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s/]+$/, { message: '$property must be an http(s) origin such as http://127.0.0.1:12111' })
  stripeApiBase?: string;

  /** The seller on tax invoices: legal name and ABN (11 digits). */
  @IsString()
  @Matches(/^.{1,200}$/, { message: '$property must be 1-200 characters' })
  sellerName = 'SMS Platform Pty Ltd';

  @IsString()
  @Matches(/^\d{11}$/, { message: '$property must be 11 digits' })
  sellerAbn = '51824753556';

  /** How long a repeated purchase request waits for the first one to finish before settling it itself. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  purchaseWaitMs = 10_000;

  /** A purchase still unsettled after this long was interrupted (a crash, a network error): the reconciler settles it. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  purchaseReconcileAfterMs = 60_000;

  /** How often the reconciler and the renewal job run (0: never, e.g. in tests that run them by hand). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  purchaseJobsIntervalMs = 60_000;

  /** Renewals charge this many days before a number expires. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60)
  numberRenewalLeadDays = 7;

  /** A failed renewal is retried this often (hours) until the grace period ends. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  numberRenewalRetryHours = 24;

  /** Days after expiry that a number whose renewal failed is kept before it is released. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(365)
  numberGraceDays = 14;
}

/** Environment variable behind each setting; the names are part of the operator contract (README). */
export const ENV_NAMES: Record<keyof AppConfig, string> = {
  port: 'PORT',
  databaseUrl: 'DATABASE_URL',
  databasePoolSize: 'DATABASE_POOL_SIZE',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'REDIS_PREFIX',
  appRole: 'APP_ROLE',
  nodeEnv: 'NODE_ENV',
  logLevel: 'LOG_LEVEL',
  inflightLimit: 'INFLIGHT_LIMIT',
  inflightSlotTtlMs: 'INFLIGHT_SLOT_TTL_MS',
  bodyLimitBytes: 'BODY_LIMIT_BYTES',
  dependencyTimeoutMs: 'DEPENDENCY_TIMEOUT_MS',
  docsEnabled: 'DOCS_ENABLED',
  shortLinkBase: 'SHORT_LINK_BASE',
  linkRetentionDays: 'LINK_RETENTION_DAYS',
  clickFoldIntervalMs: 'CLICK_FOLD_INTERVAL_MS',
  optoutAttemptsPerIp: 'OPTOUT_ATTEMPTS_PER_IP',
  optoutAttemptWindowMs: 'OPTOUT_ATTEMPT_WINDOW_MS',
  optoutMissesPerIp: 'OPTOUT_MISSES_PER_IP',
  idempotencyTtlMs: 'IDEMPOTENCY_TTL_MS',
  smppHost: 'SMPP_HOST',
  smppPort: 'SMPP_PORT',
  smppSystemId: 'SMPP_SYSTEM_ID',
  smppPassword: 'SMPP_PASSWORD',
  smppTls: 'SMPP_TLS',
  smppBinds: 'SMPP_BINDS',
  smppWindow: 'SMPP_WINDOW',
  smppTpsPerBind: 'SMPP_TPS_PER_BIND',
  testReceiptDelayMs: 'TEST_RECEIPT_DELAY_MS',
  dispatchBatchSize: 'DISPATCH_BATCH_SIZE',
  dispatchConcurrency: 'DISPATCH_CONCURRENCY',
  sweepIntervalMs: 'SWEEP_INTERVAL_MS',
  claimTimeoutMs: 'CLAIM_TIMEOUT_MS',
  metricsEnabled: 'METRICS_ENABLED',
  webhookAllowPrivate: 'WEBHOOK_ALLOW_PRIVATE',
  webhookTimeoutMs: 'WEBHOOK_TIMEOUT_MS',
  webhookMaxRetries: 'WEBHOOK_MAX_RETRIES',
  webhookRetryBaseMs: 'WEBHOOK_RETRY_BASE_MS',
  webhookRetryMaxMs: 'WEBHOOK_RETRY_MAX_MS',
  webhookHostConcurrency: 'WEBHOOK_HOST_CONCURRENCY',
  trustProxy: 'TRUST_PROXY',
  cookieSecure: 'COOKIE_SECURE',
  dashboardUrl: 'DASHBOARD_URL',
  smtpUrl: 'SMTP_URL',
  mailFrom: 'MAIL_FROM',
  systemSender: 'SYSTEM_SENDER',
  stripeSecretKey: 'STRIPE_SECRET_KEY',
  stripeApiBase: 'STRIPE_API_BASE',
  sellerName: 'SELLER_NAME',
  sellerAbn: 'SELLER_ABN',
  purchaseWaitMs: 'PURCHASE_WAIT_MS',
  purchaseReconcileAfterMs: 'PURCHASE_RECONCILE_AFTER_MS',
  purchaseJobsIntervalMs: 'PURCHASE_JOBS_INTERVAL_MS',
  numberRenewalLeadDays: 'NUMBER_RENEWAL_LEAD_DAYS',
  numberRenewalRetryHours: 'NUMBER_RENEWAL_RETRY_HOURS',
  numberGraceDays: 'NUMBER_GRACE_DAYS',
};

export class ConfigError extends Error {}

/** TRUST_PROXY as Fastify's `trustProxy` option. */
export function trustProxyOption(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Builds and validates the config from an environment; the first bad variable is named in the error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENV_NAMES)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const config = plainToInstance(AppConfig, raw);
  Object.assign(config, overrides);
  const errors = validateSync(config, { stopAtFirstError: true });
  if (errors.length === 0 && config.nodeEnv === 'production' && !(config.smppHost && config.smppSystemId && config.smppPassword)) {
    throw new ConfigError('Invalid configuration: SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD are required with NODE_ENV=production (the simulator is for development only)');
  }
  if (errors.length > 0) {
    const messages = errors.map((e) => {
      const name = ENV_NAMES[e.property as keyof AppConfig] ?? e.property;
      const why = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
      return `${name}=${JSON.stringify(String(e.value))} ${why.replace(new RegExp(`^${e.property} `), '')}`;
    });
    throw new ConfigError(`Invalid configuration: ${messages.join('; ')}`);
  }
  return config;
}
