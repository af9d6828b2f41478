import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { MOBILE_SCHEMA, TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export class UnsubscribesQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'Exact match after normalisation' })
  number?: string;
}

export class UnsubscribeNumberDto {
  @Field({ kind: 'text', required: true, example: '0412345678' })
  number: string;
}

export class UnsubscribeDto {
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ enum: ['reply', 'link', 'api'], description: 'A STOP reply, the opt-out link, or this API' }) source: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) unsubscribed_at: string;
}

export class UnsubscribesPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [UnsubscribeDto] }) results: UnsubscribeDto[];
}

export class UnsubscribeAddedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ description: 'false when the number was already unsubscribed', example: true }) added: boolean;
}

export class UnsubscribeRemovedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ description: 'false when the number was not unsubscribed', example: true }) removed: boolean;
}
