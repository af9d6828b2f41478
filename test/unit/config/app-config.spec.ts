import { AppConfig, ConfigError, envName, loadConfig, SETTINGS, startupWarnings, trustProxyOption } from '../../../src/config/app-config';
import { envNameFor } from '../../../src/config/setting';

describe(loadConfig.name, () => {
  it('uses defaults that work on this machine when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/sms',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'sms',
      appRole: 'all',
      inflightLimit: 5,
      bodyLimitBytes: 32 * 1024 * 1024,
    });
  });

  it('reads each variable from the environment, converting numbers', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://u@db:5432/x',
      REDIS_URL: 'redis://cache:6380/3',
      REDIS_PREFIX: 'prod:sms',
      APP_ROLE: 'worker',
      INFLIGHT_LIMIT: '7',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgresql://u@db:5432/x',
      redisUrl: 'redis://cache:6380/3',
      redisPrefix: 'prod:sms',
      appRole: 'worker',
      inflightLimit: 7,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT="eighty"'],
    [{ PORT: '70000' }, 'PORT="70000" must not be greater than 65535'],
    [{ APP_ROLE: 'both' }, 'APP_ROLE="both" must be one of all, api, worker'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x" must be a postgres:// URL'],
    [{ DATABASE_URL: 'postgres://h1,h2/sms?target_session_attrs=standby' }, 'target_session_attrs any, read-write or primary'],
    [{ REDIS_URL: 'redis://h:6379/db' }, 'REDIS_URL="redis://h:6379/db" must be a redis:// URL'],
    [{ REDIS_PREFIX: 'bad prefix' }, 'REDIS_PREFIX="bad prefix"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL="loud" must be a pino level or silent'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES="10" must not be less than 1024'],
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY="yes please" must be true, false, a hop count or comma-separated addresses'],
    [{ COOKIE_SECURE: 'sometimes' }, 'COOKIE_SECURE="sometimes" must be one of auto, always, never'],
    [{ DASHBOARD_URL: 'https://app.example/' }, 'DASHBOARD_URL="https://app.example/" must be an http(s) URL without a trailing slash'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL="http://mail" must be an smtp:// or smtps:// URL'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM="nobody" must be an address, optionally with a name'],
    [{ SYSTEM_SENDER: 'AB' }, 'SYSTEM_SENDER="AB" must be a Sender ID of 3-11 letters, digits and spaces with at least one letter, or 3-15 digits'],
    [{ SYSTEM_SENDER: 'TwelveLetter' }, 'SYSTEM_SENDER="TwelveLetter" must be a Sender ID'],
    [{ SYSTEM_SENDER: 'My-Brand' }, 'SYSTEM_SENDER="My-Brand" must be a Sender ID'],
  ])('stops with a message naming the variable for %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('points the dashboard and link bases at this service on its own port unless they are set', () => {
    expect(loadConfig({ PORT: '4100' })).toMatchObject({ dashboardUrl: 'http://localhost:4100', shortLinkBase: 'http://localhost:4100' });
    expect(loadConfig({})).toMatchObject({ dashboardUrl: 'http://localhost:3000', shortLinkBase: 'http://localhost:3000' });
    expect(loadConfig({ PORT: '4100', DASHBOARD_URL: 'https://app.example.com.au', SHORT_LINK_BASE: 'https://sms.example.au' })).toMatchObject({
      dashboardUrl: 'https://app.example.com.au',
      shortLinkBase: 'https://sms.example.au',
    });
    expect(loadConfig({ PORT: '4100' }, { shortLinkBase: 'http://127.0.0.1:9' })).toMatchObject({ dashboardUrl: 'http://localhost:4100', shortLinkBase: 'http://127.0.0.1:9' });
  });

  it('reads the dashboard and mail settings', () => {
    const config = loadConfig({
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      COOKIE_SECURE: 'always',
      DASHBOARD_URL: 'https://app.example.com.au',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      MAIL_FROM: 'Harbour SMS <no-reply@example.com.au>',
    });
    expect(config).toMatchObject({
      trustProxy: '10.0.0.0/8, 127.0.0.1',
      cookieSecure: 'always',
      dashboardUrl: 'https://app.example.com.au',
      smtpUrl: 'smtps://user:pass@mail.example:465',
      mailFrom: 'Harbour SMS <no-reply@example.com.au>',
    });
    expect(trustProxyOption('true')).toBe(true);
    expect(trustProxyOption('false')).toBe(false);
    expect(trustProxyOption('2')).toBe(2);
    expect(trustProxyOption('10.0.0.1')).toBe('10.0.0.1');
  });

  it('reads the system sender: a Sender ID or a number', () => {
    expect(loadConfig({}).systemSender).toBe('SMSVerify');
    expect(loadConfig({ SYSTEM_SENDER: 'Harbour SMS' }).systemSender).toBe('Harbour SMS');
    expect(loadConfig({ SYSTEM_SENDER: '61400000000' }).systemSender).toBe('61400000000');
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', APP_ROLE: 'y' })).toThrow(/PORT=.*APP_ROLE=/);
  });

  it('never shows a rejected secret or the password of a rejected URL', () => {
    const env = {
      DATABASE_URL: 'postgres://app:s3cret-pw@db1:5432,db2:5432/sms?target_session_attrs=standby',
      CARRIER_SECRET_KEY: 'not-a-key-but-still-secret',
    };
    expect(() => loadConfig(env)).toThrow('DATABASE_URL="postgres://app:***@db1:5432,db2:5432/sms?target_session_attrs=standby" must be a postgres:// URL');
    expect(() => loadConfig(env)).toThrow('CARRIER_SECRET_KEY=(hidden) must be 32 bytes');
    expect(() => loadConfig(env)).not.toThrow(/s3cret-pw|still-secret/);
  });

  it('lets tests override values after reading the environment', () => {
    expect(loadConfig({ INFLIGHT_LIMIT: '9' }, { inflightLimit: 2 }).inflightLimit).toBe(2);
  });
});

describe('SETTINGS', () => {
  /** The operator contract: these variables were read before the declaration list, and still are. */
  const HISTORIC = {
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
    receiptWaitMs: 'RECEIPT_WAIT_MS',
    receiptWaitCloseIntervalMs: 'RECEIPT_WAIT_CLOSE_INTERVAL_MS',
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
  } as const;

  it.each(Object.entries(HISTORIC))('reads %s from %s, as before', (key, name) => {
    expect(envName(key as keyof typeof HISTORIC)).toBe(name);
  });

  it('declares each setting with a reason, an accepted default and a variable of its own', () => {
    const names = Object.keys(SETTINGS).map((key) => envName(key as keyof typeof SETTINGS));
    expect(new Set(names).size).toBe(names.length);
    for (const [key, setting] of Object.entries(SETTINGS)) {
      expect([key, setting.why.length > 10]).toEqual([key, true]);
      expect([key, (setting.check as (v: unknown) => string | null)(setting.default)]).toEqual([key, null]);
    }
  });

  it('holds every default in a new AppConfig, and an environment can change each kind of setting', () => {
    expect(new AppConfig()).toMatchObject({ smppEnquireLinkMs: 30_000, smppSubmitTimeoutMs: 30_000, smppReconnectBaseMs: 500, smppReconnectMaxMs: 30_000, webhookConcurrency: 8 });
    expect(
      loadConfig({
        SMPP_ENQUIRE_LINK_MS: '1000',
        SMPP_SUBMIT_TIMEOUT_MS: '2000',
        SMPP_RECONNECT_BASE_MS: '50',
        SMPP_RECONNECT_MAX_MS: '800',
        WEBHOOK_CONCURRENCY: '2',
        SMPP_TLS: '1',
        DOCS_ENABLED: 'false',
      }),
    ).toMatchObject({
      smppEnquireLinkMs: 1000,
      smppSubmitTimeoutMs: 2000,
      smppReconnectBaseMs: 50,
      smppReconnectMaxMs: 800,
      webhookConcurrency: 2,
      smppTls: true,
      docsEnabled: false,
    });
    expect(() => loadConfig({ SMPP_TLS: 'yes' })).toThrow('SMPP_TLS="yes" must be a boolean value');
    expect(() => loadConfig({}, { webhookConcurrency: 0 })).toThrow('WEBHOOK_CONCURRENCY="0" must not be less than 1');
  });

  it('derives a variable from a field name', () => {
    expect(envNameFor('smppTpsPerBind')).toBe('SMPP_TPS_PER_BIND');
    expect(envNameFor('port')).toBe('PORT');
  });

  it('makes cookies Secure in production unless COOKIE_SECURE says otherwise, and warns when they would not be', () => {
    const smsc = { SMPP_HOST: 'smsc', SMPP_SYSTEM_ID: 'id', SMPP_PASSWORD: 'pw', TWO_FACTOR_KEY: 'k'.repeat(32) };
    const production = loadConfig({ NODE_ENV: 'production', ...smsc });
    expect(production.cookieSecure).toBe('always');
    expect(startupWarnings(production)).toEqual([]);
    expect(loadConfig({}).cookieSecure).toBe('auto');
    const never = loadConfig({ NODE_ENV: 'production', COOKIE_SECURE: 'never', ...smsc });
    expect(never.cookieSecure).toBe('never');
    expect(startupWarnings(never)).toEqual([expect.stringContaining('COOKIE_SECURE=never with NODE_ENV=production')]);
    expect(startupWarnings(loadConfig({ NODE_ENV: 'production', COOKIE_SECURE: 'auto', ...smsc }))).toEqual([expect.stringContaining('COOKIE_SECURE=auto without TRUST_PROXY')]);
    expect(startupWarnings(loadConfig({ NODE_ENV: 'production', COOKIE_SECURE: 'auto', TRUST_PROXY: '1', ...smsc }))).toEqual([]);
    expect(startupWarnings(loadConfig({ COOKIE_SECURE: 'never' }))).toEqual([]);
  });

  it('refuses production without a carrier: neither SMPP_* nor CARRIER_SECRET_KEY for the carriers table', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      'NODE_ENV=production needs a carrier: SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD, or CARRIER_SECRET_KEY for the carriers table (carrier:add)',
    );
    expect(loadConfig({ NODE_ENV: 'production', SMPP_HOST: 'smsc', SMPP_SYSTEM_ID: 'id', SMPP_PASSWORD: 'pw', TWO_FACTOR_KEY: 'k'.repeat(32) }).nodeEnv).toBe('production');
  });

  it('starts production with carriers only in the table (CARRIER_SECRET_KEY, no SMPP_*)', () => {
    const config = loadConfig({ NODE_ENV: 'production', CARRIER_SECRET_KEY: 'a'.repeat(64), TWO_FACTOR_KEY: 'k'.repeat(32) });
    expect(config.nodeEnv).toBe('production');
    expect(config.smppHost).toBeUndefined();
  });

  it('refuses half an SMPP_* carrier in production, naming what is missing, even with the carriers table', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SMPP_HOST: 'smsc', CARRIER_SECRET_KEY: 'a'.repeat(64), TWO_FACTOR_KEY: 'k'.repeat(32) })).toThrow(
      'SMPP_SYSTEM_ID and SMPP_PASSWORD missing: SMPP_HOST, SMPP_SYSTEM_ID and SMPP_PASSWORD go together',
    );
  });

  it('refuses production without TWO_FACTOR_KEY (the development key is public), and admits it elsewhere', () => {
    const smsc = { SMPP_HOST: 'smsc', SMPP_SYSTEM_ID: 'id', SMPP_PASSWORD: 'pw' };
    expect(() => loadConfig({ NODE_ENV: 'production', ...smsc })).toThrow('TWO_FACTOR_KEY is required with NODE_ENV=production');
    expect(() => loadConfig({ NODE_ENV: 'production', ...smsc, TWO_FACTOR_KEY: '' })).toThrow('TWO_FACTOR_KEY is required with NODE_ENV=production');
    expect(loadConfig({ NODE_ENV: 'development', ...smsc }).twoFactorKey).toBeUndefined();
  });
});
