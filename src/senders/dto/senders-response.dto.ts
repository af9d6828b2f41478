import { ApiProperty } from '@nestjs/swagger';
import { SENDER_TYPES } from '../sender.entity';

export class SenderDto {
  @ApiProperty({ description: 'Exact value to send from: digits for numbers (no +), else the alphanumeric ID', example: 'MyBrand' })
  sender: string;
  @ApiProperty({ enum: SENDER_TYPES })
  type: string;
  @ApiProperty({ enum: ['active'] })
  status: string;
  @ApiProperty({ description: 'Empty when none' })
  label: string;
  @ApiProperty()
  is_default: boolean;
}

export class SendersResponseDto {
  @ApiProperty({ enum: ['complete'] })
  status: string;
  @ApiProperty({ type: [SenderDto] })
  results: SenderDto[];
}
