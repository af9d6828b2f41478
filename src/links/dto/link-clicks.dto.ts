import { ApiProperty } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { PageQuery } from '../../common/http/pagination';
import { MOBILE_SCHEMA, TIMESTAMP_SCHEMA, UUID_EXAMPLE } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export class LinkClicksQuery extends PageQuery {
  @Field({ kind: 'text', source: 'query', format: 'uuid', description: 'The links of one message; takes precedence over send_id', example: UUID_EXAMPLE })
  message_id?: string;

  @Field({ kind: 'integer', source: 'query', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('send_id') }, description: 'The links of every message of one send' })
  send_id?: number;
}

export class LinkClickDto {
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty(MOBILE_SCHEMA) to: string;
  @ApiProperty({ description: 'The URL as written in the message', example: 'https://shop.example/sale' }) url: string;
  @ApiProperty({ description: 'What the message carried instead', example: 'https://sms.example/aZ3k9Qx' }) short_url: string;
  @ApiProperty({ type: 'integer', description: 'Clicks by people (preview fetchers and scanners are not counted)', example: 2 }) clicks: number;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null before the first click', example: null }) first_clicked_at: string | null;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null before the first click', example: null }) last_clicked_at: string | null;
}

export class LinkClicksPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 1 }) total: number;
  @ApiProperty({ type: 'integer', example: 100 }) limit: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset: number;
  @ApiProperty({ type: [LinkClickDto] }) results: LinkClickDto[];
}
