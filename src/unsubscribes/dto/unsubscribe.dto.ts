import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
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
  @ApiProperty({ example: '61412345678' }) number: string;
  @ApiProperty({ enum: ['reply', 'link', 'api'] }) source: string;
  @ApiProperty({ example: '2026-11-21 06:00:00' }) unsubscribed_at: string;
}

export class UnsubscribesPageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
  @ApiProperty({ type: [UnsubscribeDto] }) results: UnsubscribeDto[];
}

export class UnsubscribeAddedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() number: string;
  @ApiProperty({ description: 'false when the number was already unsubscribed' }) added: boolean;
}

export class UnsubscribeRemovedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty() number: string;
  @ApiProperty({ description: 'false when the number was not unsubscribed' }) removed: boolean;
}
