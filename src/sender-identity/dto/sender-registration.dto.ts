import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { ErrorText } from '../../common/errors/error-catalogue';
import { Field } from '../../common/validation/field';
import { REGISTRATION_STATES } from '../registrations/sender-registration.entity';

export class SubmitRegistrationDto {
  @Field({
    kind: 'text',
    required: true,
    description: 'The Sender ID: 3-11 letters, digits and spaces, at least one letter',
    example: 'MyBrand',
    doc: { minLength: 3, maxLength: 11, pattern: '^(?=.*[A-Za-z])[A-Za-z0-9 ]{3,11}$' },
  })
  sender: string;

  @Field({
    kind: 'text',
    required: true,
    description: 'The business the Sender ID identifies (at most 200 characters)',
    example: 'Harbour Bakery Pty Ltd',
    doc: { maxLength: 200 },
  })
  business_name: string;

  @Field({ kind: 'text', required: true, description: 'Its ABN: 11 digits (spaces allowed) with a valid checksum', example: '51 824 753 556' })
  abn: string;

  @Field({
    kind: 'text',
    required: true,
    description: 'Why the business sends as this ID (at most 1000 characters)',
    example: 'Order and delivery notices to our customers',
    doc: { maxLength: 1000 },
  })
  reason: string;
}

export class RegistrationSubmittedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 42 }) registration_id: number;
  @ApiProperty({ example: 'MyBrand' }) sender: string;
  @ApiProperty({ enum: REGISTRATION_STATES, description: '`submitted`; `approved` when the account’s own approved registration of this ID was reactivated', example: 'submitted' })
  state: string;
}

export class RegistrationDto {
  @ApiProperty({ type: 'integer', example: 42 }) registration_id: number;
  @ApiProperty({ example: 'MyBrand' }) sender: string;
  @ApiProperty({ example: 'Harbour Bakery Pty Ltd' }) business_name: string;
  @ApiProperty({ pattern: '^\\d{11}$', example: '51824753556' }) abn: string;
  @ApiProperty({ example: 'Order and delivery notices to our customers' }) reason: string;
  @ApiProperty({ enum: REGISTRATION_STATES, example: 'submitted' }) state: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why it was rejected; null unless rejected', example: null }) rejection_reason: string | null;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) submitted_at: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'When an operator approved or rejected it (UTC); null while submitted', example: null }) decided_at:
    string | null;
}

export class RegistrationsPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [RegistrationDto] }) results: RegistrationDto[];
}

export class RegistrationsQuery extends PageQuery {
  @Field({ kind: 'enum', source: 'query', values: REGISTRATION_STATES, messages: { invalid: ErrorText.invalidRegistrationState }, description: 'Only registrations in this state' })
  state?: (typeof REGISTRATION_STATES)[number];
}
