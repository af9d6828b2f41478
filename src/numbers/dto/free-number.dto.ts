import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MOBILE_SCHEMA, TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { AU_STATES } from '../service-address';

/** The fields form of a service address. */
export class ServiceAddressFieldsDto {
  @ApiProperty({ description: 'Street address (unit, number, street)', example: 'Level 2, 10 Smith St' }) street: string;
  @ApiPropertyOptional({ description: 'Suburb or town', example: 'Sydney' }) suburb?: string;
  @ApiProperty({ enum: AU_STATES, example: 'NSW' }) state: string;
  @ApiProperty({ pattern: '^[0-9]{4}$', example: '2000' }) postcode: string;
}

export class ClaimFreeNumberDto {
  /** Checked by the service (a line or fields, with its own texts); documented as either form. */
  @ApiProperty({
    description:
      'Where the number is used: one line ending with the state or territory (NSW, VIC, QLD, WA, SA, TAS, ACT, NT) and a 4-digit postcode (`Level 2, 10 Smith St, Sydney NSW 2000`), or the fields `{street, suburb?, state, postcode}`. At most 200 characters.',
    oneOf: [{ type: 'string', maxLength: 200, example: 'Level 2, 10 Smith St, Sydney NSW 2000' }, { $ref: '#/components/schemas/ServiceAddressFieldsDto' }],
    example: 'Level 2, 10 Smith St, Sydney NSW 2000',
  })
  service_address: string | ServiceAddressFieldsDto;
}

export class FreeNumberClaimedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ ...MOBILE_SCHEMA, description: 'The number, now an active `dedicated` sender of the account' }) number: string;
  @ApiProperty({ enum: ['dedicated'], example: 'dedicated' }) type: string;
  @ApiProperty({ description: 'The service address as recorded, on one line', example: 'Level 2, 10 Smith St, Sydney NSW 2000' }) service_address: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) claimed_at: string;
}
