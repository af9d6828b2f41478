import { isPlainUrl, parseDatabaseUrl } from '../../../src/database/database-url';

describe(parseDatabaseUrl.name, () => {
  it('reads a host list as libpq writes it, with the session requirement', () => {
    const url = parseDatabaseUrl('postgres://app:s%40cret@10.0.0.1:5433,db2,[::1]:6000/sms?sslmode=disable&target_session_attrs=read-write');
    expect(url.hosts).toEqual([
      { host: '10.0.0.1', port: 5433 },
      { host: 'db2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect([url.targetSessionAttrs, url.database, isPlainUrl(url)]).toEqual(['read-write', 'sms', false]);
  });

  it('gives each host a URL node-postgres reads: same credentials and parameters, no target_session_attrs', () => {
    const url = parseDatabaseUrl('postgresql://app:s%40cret@h1:5433,h2:5434/sms?target_session_attrs=read-write&application_name=x');
    expect(url.hosts.map((h) => url.forHost(h))).toEqual(['postgresql://app:s%40cret@h1:5433/sms?application_name=x', 'postgresql://app:s%40cret@h2:5434/sms?application_name=x']);
  });

  it('names another database on the same host list, keeping the session requirement', () => {
    expect(parseDatabaseUrl('postgres://u@h1:1,h2:2/sms?target_session_attrs=primary').withDatabase('postgres')).toBe(
      'postgres://u@h1:1,h2:2/postgres?target_session_attrs=primary',
    );
    expect(parseDatabaseUrl('postgres://u@h1/sms?sslmode=disable').withDatabase('postgres')).toBe('postgres://u@h1/postgres?sslmode=disable');
  });

  it('treats one host without a session requirement as plain, and a socket URL as it is', () => {
    expect(isPlainUrl(parseDatabaseUrl('postgres://postgres@127.0.0.1:5432/sms'))).toBe(true);
    expect(isPlainUrl(parseDatabaseUrl('postgres://127.0.0.1/sms?target_session_attrs=read-write'))).toBe(false);
    const socket = parseDatabaseUrl('postgres:///sms?host=/var/run/postgresql');
    expect([isPlainUrl(socket), socket.database, socket.withDatabase('postgres')]).toEqual([true, 'sms', 'postgres:///postgres?host=%2Fvar%2Frun%2Fpostgresql']);
  });

  it.each(['postgres://h1/sms?target_session_attrs=standby', 'postgres://h1,:5432/sms', 'mysql://h1/sms'])('refuses %s', (text) => {
    expect(() => parseDatabaseUrl(text)).toThrow(/DATABASE_URL/);
  });
});
