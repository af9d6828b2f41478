import { requestIdFor } from '../../../../src/common/http/request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe(requestIdFor.name, () => {
  it.each(['abc-123', 'order 1001 / retry 2', '{"trace":1}', 'x'.repeat(128), '~!@#$%^&*()'])('keeps the caller’s printable id %j', (id) => {
    expect(requestIdFor(id)).toBe(id);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['longer than 128 characters', 'x'.repeat(129)],
    ['with a control character', 'abc\u0007'],
    ['with a tab', 'a\tb'],
    ['non-ASCII', 'café'],
    ['padded with spaces', ' abc '],
    ['repeated', ['a', 'b']],
  ])('makes a fresh UUID when the header is %s', (_, header) => {
    const id = requestIdFor(header);
    expect(id).toMatch(UUID);
    expect(requestIdFor(header)).not.toBe(id);
  });
});
