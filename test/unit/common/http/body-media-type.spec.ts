import { requestBodyKind } from '../../../../src/common/http/body-media-type';

describe(requestBodyKind.name, () => {
  const withBody = (contentType?: string) => ({ 'content-length': '7', ...(contentType === undefined ? {} : { 'content-type': contentType }) });

  it.each(['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8', ' application/json '])(
    'reads a body declared %j as JSON',
    (type) => expect(requestBodyKind('POST', withBody(type))).toBe('json'),
  );

  it('reads a body with no Content-Type, or a blank one, as JSON', () => {
    expect(requestBodyKind('POST', withBody())).toBe('json');
    expect(requestBodyKind('PATCH', withBody(''))).toBe('json');
    expect(requestBodyKind('DELETE', withBody('   '))).toBe('json');
    expect(requestBodyKind('POST', { 'transfer-encoding': 'chunked' })).toBe('json');
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json, text/plain',
    'application/jsonx',
    'application/vnd.api+json',
    'application/json; charset=latin1',
    '*/*',
    ';',
  ])('refuses a body declared %j', (type) => expect(requestBodyKind('POST', withBody(type))).toBe('unsupported'));

  it('leaves a media type a route also accepts (a page taking forms) to that route, and still refuses the rest', () => {
    const forms = ['application/x-www-form-urlencoded'];
    expect(requestBodyKind('POST', withBody('application/x-www-form-urlencoded'), forms)).toBe('other');
    expect(requestBodyKind('POST', withBody('Application/X-WWW-Form-Urlencoded; charset=utf-8'), forms)).toBe('other');
    expect(requestBodyKind('POST', withBody('application/json'), forms)).toBe('json');
    expect(requestBodyKind('POST', withBody('text/plain'), forms)).toBe('unsupported');
  });

  it('does not judge requests without a body, nor GET and HEAD bodies (never read)', () => {
    expect(requestBodyKind('POST', { 'content-type': 'text/plain' })).toBe('none');
    expect(requestBodyKind('POST', { 'content-type': 'text/plain', 'content-length': '0' })).toBe('none');
    expect(requestBodyKind('GET', withBody('text/plain'))).toBe('none');
    expect(requestBodyKind('HEAD', withBody('text/plain'))).toBe('none');
  });
});
