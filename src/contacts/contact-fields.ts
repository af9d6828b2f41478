/** The text fields of a contact (interface: Contact), in wire order; unset ones read as ''. */
export const CONTACT_TEXT_FIELDS = ['first_name', 'last_name', 'company', 'other', 'field_1', 'field_2', 'field_3', 'field_4', 'field_5'] as const;

export type ContactTextField = (typeof CONTACT_TEXT_FIELDS)[number];

export type ContactTextValues = Record<ContactTextField, string>;

export interface ContactRecord extends ContactTextValues {
  id: number;
  number: string;
}

/** Longest accepted value of a contact text field. */
export const CONTACT_FIELD_MAX_LENGTH = 1000;
