import { CONTACT_FIELD_MAX_LENGTH, CONTACT_TEXT_FIELDS, ContactTextField } from '../../contacts/contact-fields';
import type { ContactView } from '../../contacts/contacts.mapper';
import { formText, type FormBody } from '../../pages/form-body';

/** How the pages name a contact's fields. */
export const CONTACT_FIELD_LABELS: Record<'number' | ContactTextField, string> = {
  number: 'Mobile number',
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  other: 'Other',
  field_1: 'Field 1',
  field_2: 'Field 2',
  field_3: 'Field 3',
  field_4: 'Field 4',
  field_5: 'Field 5',
};

export type ContactFormValues = Record<'number' | ContactTextField, string>;

/** What a contact form sent: the number and every text field ('' when left empty). */
export function contactFormValues(form: FormBody | undefined): ContactFormValues {
  const values = { number: formText(form, 'number') } as ContactFormValues;
  for (const field of CONTACT_TEXT_FIELDS) values[field] = formText(form, field);
  return values;
}

export function contactValuesOf(contact: ContactView): ContactFormValues {
  const values = { number: contact.number } as ContactFormValues;
  for (const field of CONTACT_TEXT_FIELDS) values[field] = contact[field];
  return values;
}

/** The form's inputs, in the order the API lists the fields. */
export function contactFormFields(values: ContactFormValues) {
  return (['number', ...CONTACT_TEXT_FIELDS] as const).map((name) => ({
    name,
    label: CONTACT_FIELD_LABELS[name],
    value: values[name],
    maxLength: name === 'number' ? 30 : CONTACT_FIELD_MAX_LENGTH,
    required: name === 'number',
    type: name === 'number' ? 'tel' : 'text',
  }));
}

/** A contact as a row of a table: its name made of whichever name fields it has. */
export function contactRow(contact: ContactView) {
  const name = [contact.first_name, contact.last_name].filter((part) => part !== '').join(' ');
  const extra = CONTACT_TEXT_FIELDS.filter((f) => !['first_name', 'last_name', 'company'].includes(f) && contact[f] !== '').map((f) => `${CONTACT_FIELD_LABELS[f]}: ${contact[f]}`);
  return { id: contact.contact_id, number: contact.number, name, company: contact.company, extra: extra.join(' · ') };
}
