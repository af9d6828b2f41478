import { RouteTable } from '../../../../src/common/http/route-table';

describe(RouteTable.name, () => {
  const table = new RouteTable();
  table.add('/v1/contacts', 'DELETE');
  table.add('/v1/contacts', ['GET', 'HEAD']);
  table.add('/v1/contacts', 'PATCH');
  table.add('/v1/contacts', 'POST');
  table.add('/senders/confirm/:token', 'GET');

  it('lists a path’s methods in the order GET, POST, PATCH, DELETE without HEAD', () => {
    expect(table.allowedMethods('/v1/contacts')).toEqual(['GET', 'POST', 'PATCH', 'DELETE']);
  });

  it('ignores the query string and matches parameters', () => {
    expect(table.allowedMethods('/v1/contacts?limit=1')).toEqual(['GET', 'POST', 'PATCH', 'DELETE']);
    expect(table.allowedMethods('/senders/confirm/abc123')).toEqual(['GET']);
  });

  it('returns nothing for unknown paths', () => {
    expect(table.allowedMethods('/v1/contacts/1')).toEqual([]);
    expect(table.allowedMethods('/v1/contact')).toEqual([]);
  });
});
