import { parseBasicAuthorization } from '../../../../src/common/auth/basic-credentials';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe(parseBasicAuthorization.name, () => {
  it('decodes username and password, splitting at the first colon', () => {
    expect(parseBasicAuthorization(`Basic ${b64('user:pa:ss')}`)).toEqual({ username: 'user', password: 'pa:ss' });
    expect(parseBasicAuthorization(`basic ${b64('u:p')}`)).toEqual({ username: 'u', password: 'p' });
  });

  it.each([
    undefined,
    '',
    'Bearer abc',
    'Basic',
    'Basic ',
    `Basic ${b64('nocolon')}`,
    `Basic ${b64(':p')}`,
    `Basic ${b64('u:')}`,
    'Basic ***',
    'Basic YWJj=',
    `Basic ${b64('u:p')} extra`,
  ])('rejects %p', (header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });
});
