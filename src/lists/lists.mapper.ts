import { PageResult } from '../common/http/pagination';
import { formatUtc } from '../common/time/format';
import type { ContactView } from '../contacts/contacts.mapper';

export interface ListView {
  list_id: number;
  name: string;
  created_at: string;
  contact_count: number;
}

export const toListView = (row: { id: number; name: string; createdAt: Date; contactCount: number }): ListView => ({
  list_id: row.id,
  name: row.name,
  created_at: formatUtc(row.createdAt),
  contact_count: row.contactCount,
});

export const toListsResult = (rows: ListView[]) => ({ status: 'complete' as const, results: rows });
export const toListCreated = (list: { id: number; name: string; existing: boolean }) => ({
  status: 'complete' as const,
  list_id: list.id,
  name: list.name,
  existing: list.existing,
});
export const toListRenamed = (listId: number, name: string) => ({ status: 'complete' as const, list_id: listId, name });
export const toListDeleted = (listId: number, contactsDeleted: number) => ({ status: 'complete' as const, list_id: listId, contacts_deleted: contactsDeleted });

export type ListMembersPage = { status: 'complete'; list_id: number } & Omit<PageResult<ContactView>, 'status'>;

export function toListMembersPage(listId: number, page: PageResult<ContactView>): ListMembersPage {
  const { status, ...rest } = page;
  return { status, list_id: listId, ...rest };
}

export const toMemberAdded = (listId: number, contactId: number, added: boolean) => ({ status: 'complete' as const, list_id: listId, contact_id: contactId, added });
export const toMemberRemoved = (listId: number, contactId: number | null, removed: boolean) => ({ status: 'complete' as const, list_id: listId, contact_id: contactId, removed });
