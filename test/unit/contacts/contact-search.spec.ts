import { contactSearchOf } from '../../../src/contacts/contact-search';

describe(contactSearchOf.name, () => {
  it.each([
    ['', null],
    ['   ', null],
    ['Smith', { text: '%smith%', digits: null, short: false }],
    ['  Ann Smith ', { text: '%ann smith%', digits: null, short: false }],
    ['0412 345', { text: '%0412 345%', digits: '%0412345%', short: false }],
    ['+61 (412) 345-678', { text: '%+61 (412) 345-678%', digits: '%61412345678%', short: false }],
    ['4471', { text: '%4471%', digits: '%4471%', short: false }],
    ['4-7', { text: '%4-7%', digits: null, short: false }],
    ['tag7', { text: '%tag7%', digits: null, short: false }],
    ['100%_off\\', { text: '%100\\%\\_off\\\\%', digits: null, short: false }],
    ['()-', { text: '%()-%', digits: null, short: false }],
    ['jo', { text: '%jo%', digits: null, short: true }],
    ['04', { text: '%04%', digits: null, short: true }],
  ])('%j means %j', (typed, expected) => {
    expect(contactSearchOf(typed)).toEqual(expected);
  });

  it('cuts a search at 100 characters', () => {
    expect(contactSearchOf('x'.repeat(250))!.text).toBe(`%${'x'.repeat(100)}%`);
  });
});
