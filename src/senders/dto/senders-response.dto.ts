import { ApiProperty } from '@nestjs/swagger';
import { SENDER_TYPES } from '../sender.entity';

export class SenderDto {
  @ApiProperty({ description: 'The stored value: digits for numbers (no +), else the alphanumeric ID. Requests may name a number in any form.', example: 'MyBrand' })
  sender: string;
  @ApiProperty({ enum: SENDER_TYPES, example: 'alpha' })
  type: string;
  @ApiProperty({ enum: ['active'], example: 'active' })
  status: string;
  @ApiProperty({ description: 'Empty when none', example: '' })
  label: string;
  @ApiProperty({ example: true })
  is_default: boolean;
}

export class SendersResponseDto {
  @ApiProperty({ enum: ['complete'], example: 'complete' })
  status: string;
  @ApiProperty({ type: [SenderDto] })
  results: SenderDto[];
}
