/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the contact text fields are added to these classes at run time (one decorator per field); the merged interfaces type them */
import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { ErrorText } from '../../common/errors/error-catalogue';
import { MOBILE_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';
import { CONTACT_FIELD_MAX_LENGTH, CONTACT_TEXT_FIELDS, ContactTextField } from '../contact-fields';

/** Adds the nine optional contact text fields after a class's own fields (so those are checked first). */
function withContactTextFields(target: abstract new () => object, source: 'body' | 'query'): void {
  for (const field of CONTACT_TEXT_FIELDS) {
    const description = source === 'query' ? 'Case-insensitive substring match' : 'Optional text';
    Field({ kind: 'text', source, maxLength: CONTACT_FIELD_MAX_LENGTH, description })(target.prototype, field);
  }
}

export class ContactsQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'Exact match after normalisation', example: '0412345678' })
  number?: string;
}
withContactTextFields(ContactsQuery, 'query');
export interface ContactsQuery extends Partial<Record<ContactTextField, string>> {}

export class CreateContactDto {
  @Field({ kind: 'text', required: true, description: 'Australian mobile, local or international form', example: '0412345678' })
  number: string;
}
withContactTextFields(CreateContactDto, 'body');
export interface CreateContactDto extends Partial<Record<ContactTextField, string>> {}

export class UpdateContactDto {
  @Field({ kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('contact_id') }, example: 42 })
  contact_id: number;

  @Field({ kind: 'text', description: 'New number; re-normalised and checked for duplicates', example: '0412 345 678' })
  number?: string;
}
withContactTextFields(UpdateContactDto, 'body');
export interface UpdateContactDto extends Partial<Record<ContactTextField, string>> {}

export class DeleteContactDto {
  @Field({ kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('contact_id') }, example: 42 })
  contact_id: number;
}

export class ContactDto {
  @ApiProperty({ type: 'integer', example: 42 })
  contact_id: number;
  @ApiProperty(MOBILE_SCHEMA)
  number: string;
}
for (const field of CONTACT_TEXT_FIELDS) ApiProperty({ type: 'string', description: "'' when unset", example: field === 'first_name' ? 'Ann' : '' })(ContactDto.prototype, field);

export class ContactsPageDto {
  @ApiProperty({ enum: ['complete'], example: 'complete' }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [ContactDto] }) results: ContactDto[];
}

export class ContactCreatedDto {
  @ApiProperty({ enum: ['complete'], example: 'complete' }) status: string;
  @ApiProperty({ type: 'integer', example: 42 }) contact_id: number;
  @ApiProperty(MOBILE_SCHEMA) number: string;
}

export class ContactUpdatedDto {
  @ApiProperty({ enum: ['complete'], example: 'complete' }) status: string;
  @ApiProperty({ type: 'integer', example: 42 }) contact_id: number;
}

export class ContactDeletedDto {
  @ApiProperty({ enum: ['complete'], example: 'complete' }) status: string;
  @ApiProperty({ type: 'integer', example: 42 }) contact_id: number;
  @ApiProperty({ description: 'false when no such contact existed', example: true }) removed: boolean;
}
