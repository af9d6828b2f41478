import { ConfigError, loadConfig, trustProxyOption } from '../../../src/config/app-config';

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

  it('lets tests override values after reading the environment', () => {
    expect(loadConfig({ INFLIGHT_LIMIT: '9' }, { inflightLimit: 2 }).inflightLimit).toBe(2);
  });
});
