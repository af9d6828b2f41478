import { redactQueryCredentials, redactSecrets } from '../../../../src/common/logging/redact';

describe(redactQueryCredentials.name, () => {
  it.each([
    [
      'the url field of a request line',
      '{"url":"/simple/send-sms?api_username=api_u1&api_password=s3cr3t&to=0412345678"}',
      '{"url":"/simple/send-sms?api_username=[redacted]&api_password=[redacted]&to=0412345678"}',
    ],
    ['a parameter at the end of a string', '{"url":"/x?to=1&api_password=s3cr3t"}', '{"url":"/x?to=1&api_password=[redacted]"}'],
    ['any case and a percent-encoded underscore', '{"msg":"GET /x?API_PASSWORD=a&api%5Fusername=b"}', '{"msg":"GET /x?API_PASSWORD=[redacted]&api%5Fusername=[redacted]"}'],
    ['a value holding JSON escapes', '{"url":"/x?api_password=a\\\\b\\"c&to=1"}', '{"url":"/x?api_password=[redacted]&to=1"}'],
    ['a bare query string', '{"query":"api_username=u&api_password=p"}', '{"query":"api_username=[redacted]&api_password=[redacted]"}'],
    ['a url inside a message', '{"msg":"failed GET /simple/send-sms?api_password=p q"}', '{"msg":"failed GET /simple/send-sms?api_password=[redacted] q"}'],
  ])('cuts the credentials from %s', (_, line, expected) => {
    expect(redactQueryCredentials(line)).toBe(expected);
  });

  it('returns other lines unchanged', () => {
    const line = '{"url":"/v1/messages?custom_ref=api_password","msg":"request completed"}';
    expect(redactQueryCredentials(line)).toBe(line);
  });
});

describe(redactSecrets.name, () => {
  it('cuts the token of single-use links wherever a URL is logged', () => {
    expect(redactSecrets('{"url":"/senders/confirm/AbCd-_12","msg":"open https://x.example/set-password/s3cr3t?a=1"}')).toBe(
      '{"url":"/senders/confirm/[redacted]","msg":"open https://x.example/set-password/[redacted]?a=1"}',
    );
    expect(redactSecrets('{"msg":"text https://x.example/senders/confirm/AbCd12 sent"}')).toBe('{"msg":"text https://x.example/senders/confirm/[redacted] sent"}');
  });
});
