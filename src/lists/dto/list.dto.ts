/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the contact text fields are added to these classes at run time (one decorator per field); the merged interfaces type them */
import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { ErrorText } from '../../common/errors/error-catalogue';
import { TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';
import { CONTACT_FIELD_MAX_LENGTH, CONTACT_TEXT_FIELDS, ContactTextField } from '../../contacts/contact-fields';
import { ContactDto } from '../../contacts/dto/contact.dto';

const LIST_ID = { kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('list_id') }, example: 7 } as const;
/** The longest list name the API takes (the dashboard's forms say the same; contacts:import --list too). */
export const LIST_NAME_MAX_LENGTH = 255;
const NAME = { kind: 'text', required: true, maxLength: LIST_NAME_MAX_LENGTH, example: 'Spring customers' } as const;

export class CreateListDto {
  @Field(NAME)
  name: string;
}

export class RenameListDto {
  @Field(LIST_ID)
  list_id: number;

  @Field(NAME)
  name: string;
}

export class DeleteListDto {
  @Field(LIST_ID)
  list_id: number;

  @Field({ kind: 'boolean', description: 'Also delete the member contacts permanently (default false)' })
  delete_contacts?: boolean;
}

export class ListDto {
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ example: 'Spring customers' }) name: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) created_at: string;
  @ApiProperty({ type: 'integer', example: 120 }) contact_count: number;
}

export class ListsDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: [ListDto] }) results: ListDto[];
}

export class ListCreatedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ example: 'Spring customers' }) name: string;
  @ApiProperty({ description: 'true when a list of that name already existed', example: false }) existing: boolean;
}

export class ListRenamedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ example: 'Spring customers' }) name: string;
}

export class ListDeletedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ description: 'Contacts deleted with the list (0 unless delete_contacts)', type: 'integer', example: 0 }) contacts_deleted: number;
}

export class ListContactsQuery extends PageQuery {
  @Field(LIST_ID)
  list_id: number;
}

export class AddListContactDto {
  @Field(LIST_ID)
  list_id: number;

  @Field({ kind: 'integer', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('contact_id') }, description: 'An existing contact; or give number', example: 42 })
  contact_id?: number;

  @Field({ kind: 'text', description: 'Adds the contact with this number, creating it (with the fields below) when new' })
  number?: string;
}
for (const field of CONTACT_TEXT_FIELDS) Field({ kind: 'text', maxLength: CONTACT_FIELD_MAX_LENGTH })(AddListContactDto.prototype, field);
export interface AddListContactDto extends Partial<Record<ContactTextField, string>> {}

export class RemoveListContactDto {
  @Field(LIST_ID)
  list_id: number;

  @Field({ kind: 'integer', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('contact_id') } })
  contact_id?: number;

  @Field({ kind: 'text' })
  number?: string;
}

export class ListContactsPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [ContactDto] }) results: ContactDto[];
}

export class ListContactAddedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ type: 'integer', example: 42 }) contact_id: number;
  @ApiProperty({ description: 'false when the contact was already in the list', example: true }) added: boolean;
}

export class ListContactRemovedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 7 }) list_id: number;
  @ApiProperty({ nullable: true, type: 'integer', description: 'null when the number matches no contact', example: 42 }) contact_id: number | null;
  @ApiProperty({ description: 'false when the contact was not in the list', example: true }) removed: boolean;
}
