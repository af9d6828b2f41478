import { parseFormBody } from '../../../src/pages/form-body';
import { parseMultipartForm } from '../../../src/pages/multipart-form';

const TYPE = 'multipart/form-data; boundary=----b0undary';
const body = (...parts: string[]) => `------b0undary\r\n${parts.join('\r\n------b0undary\r\n')}\r\n------b0undary--\r\n`;

describe(parseMultipartForm.name, () => {
  it('reads fields and a file part, keeping the file name and the content exactly', () => {
    const form = parseMultipartForm(
      TYPE,
      body(
        'Content-Disposition: form-data; name="_csrf"\r\n\r\ntoken',
        'Content-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,first_name\r\n0412345678,Ann\r\n',
      ),
    );
    expect(form).toEqual({ _csrf: 'token', file: 'number,first_name\r\n0412345678,Ann\r\n', 'file:filename': 'people.csv' });
  });

  it('reads the body as bytes: a file that is not UTF-8 (Windows-1252, binary with NUL) is kept as "" and marked, a UTF-8 one and its name decoded', () => {
    const bytes = (file: Buffer) =>
      Buffer.concat([
        Buffer.from(
          body('Content-Disposition: form-data; name="_csrf"\r\n\r\ntoken', 'Content-Disposition: form-data; name="file"; filename="Renée.csv"\r\n\r\n').replace(
            /\r\n------b0undary--\r\n$/,
            '',
          ),
        ),
        file,
        Buffer.from('\r\n------b0undary--\r\n'),
      ]);
    expect(parseMultipartForm(TYPE, bytes(Buffer.from('number,first_name\n0491570124,Ren\xe9e\n', 'latin1')))).toEqual({
      _csrf: 'token',
      file: '',
      'file:filename': 'Renée.csv',
      'file:not-text': 'yes',
    });
    expect(parseMultipartForm(TYPE, bytes(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00])))).toMatchObject({ file: '', 'file:not-text': 'yes' });
    expect(parseMultipartForm(TYPE, bytes(Buffer.from('number,first_name\n0491570124,Renée\n')))).toEqual({
      _csrf: 'token',
      file: 'number,first_name\n0491570124,Renée\n',
      'file:filename': 'Renée.csv',
    });
  });

  it('refuses a text field that is not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('------b0undary\r\nContent-Disposition: form-data; name="a"\r\n\r\n'), Buffer.from([0xe9]), Buffer.from('\r\n------b0undary--\r\n')]);
    expect(() => parseMultipartForm(TYPE, bytes)).toThrow('The upload could not be read; choose the file and send the form again');
  });

  it('drops keys that could reach a prototype', () => {
    expect(parseMultipartForm(TYPE, body('Content-Disposition: form-data; name="__proto__"\r\n\r\nx'))).toEqual({});
  });

  it.each([
    ['no boundary', 'multipart/form-data', body('Content-Disposition: form-data; name="a"\r\n\r\nx')],
    ['no closing delimiter', TYPE, '------b0undary\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'],
    ['a part without a name', TYPE, body('Content-Disposition: form-data\r\n\r\nx')],
    ['a part without headers', TYPE, body('x')],
    ['another boundary', TYPE, body('Content-Disposition: form-data; name="a"\r\n\r\nx').replace(/b0undary/g, 'other')],
  ])('refuses %s', (_case, type, text) => {
    expect(() => parseMultipartForm(type, text)).toThrow('The upload could not be read; choose the file and send the form again');
  });
});

describe(`${parseFormBody.name} with uploads`, () => {
  const text = body('Content-Disposition: form-data; name="a"\r\n\r\nx');

  it('takes multipart only where the route accepts uploads, and only up to the limit', () => {
    expect(() => parseFormBody(TYPE, text)).toThrow('Forms must be sent as application/x-www-form-urlencoded');
    expect(parseFormBody(TYPE, text, 1024)).toEqual({ a: 'x' });
    expect(() => parseFormBody(TYPE, text, 10)).toThrow('Request body is too large');
  });
});
