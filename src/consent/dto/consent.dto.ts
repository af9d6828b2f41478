import { ApiProperty } from '@nestjs/swagger';
import { DAY_SCHEMA, MOBILE_SCHEMA, TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { PageQuery } from '../../common/http/pagination';
import { Field } from '../../common/validation/field';

export class ConsentQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', description: 'One number, in any form', example: '0412345678' })
  number?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive, on recorded_at', doc: DAY_SCHEMA })
  from?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive, on recorded_at', doc: DAY_SCHEMA })
  to?: string;
}

export class ConsentExportQuery {
  @Field({ kind: 'text', source: 'query', description: 'One number, in any form', example: '0412345678' })
  number?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive, on recorded_at', doc: DAY_SCHEMA })
  from?: string;
  @Field({ kind: 'text', source: 'query', description: 'YYYY-MM-DD (UTC), inclusive, on recorded_at', doc: DAY_SCHEMA })
  to?: string;
}

export class ConsentRecordDto {
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ enum: ['opt_in', 'opt_out'] }) change: string;
  @ApiProperty({ enum: ['reply', 'keyword', 'start', 'link', 'api', 'dashboard', 'import'], description: 'How the standing changed' }) source: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) recorded_at: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The reply that made the change' }) inbound_message_id: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The message whose opt-out link was used' }) message_id: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The address the opt-out page was used from' }) client_address: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The API key that made the change' }) api_key_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The dashboard user that made the change' }) user_id: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The keyword or list involved', example: 'START' }) detail: string | null;
}

export class ConsentPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [ConsentRecordDto] }) results: ConsentRecordDto[];
}
