import { CONTACT_TEXT_FIELDS, ContactRecord } from './contact-fields';

export type ContactView = { contact_id: number; number: string } & Record<(typeof CONTACT_TEXT_FIELDS)[number], string>;

export function toContactView(row: ContactRecord): ContactView {
  const view = { contact_id: row.id, number: row.number } as ContactView;
  for (const field of CONTACT_TEXT_FIELDS) view[field] = row[field] ?? '';
  return view;
}

export interface ContactCreated {
  status: 'complete';
  contact_id: number;
  number: string;
}

export interface ContactUpdated {
  status: 'complete';
  contact_id: number;
}

export interface ContactDeleted {
  status: 'complete';
  contact_id: number;
  removed: boolean;
}

export const toContactCreated = (contactId: number, number: string): ContactCreated => ({ status: 'complete', contact_id: contactId, number });
export const toContactUpdated = (contactId: number): ContactUpdated => ({ status: 'complete', contact_id: contactId });
export const toContactDeleted = (contactId: number, removed: boolean): ContactDeleted => ({ status: 'complete', contact_id: contactId, removed });
