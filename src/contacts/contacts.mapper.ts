import { CONTACT_TEXT_FIELDS, ContactRecord } from './contact-fields';

export type ContactView = { contact_id: number; number: string } & Record<(typeof CONTACT_TEXT_FIELDS)[number], string>;

export function toContactView(row: ContactRecord): ContactView {
  const view = { contact_id: row.id, number: row.number } as ContactView;
  for (const field of CONTACT_TEXT_FIELDS) view[field] = row[field] ?? '';
  return view;
}
