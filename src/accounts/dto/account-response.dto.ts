import { ApiProperty } from '@nestjs/swagger';

export class AccountResponseDto {
  @ApiProperty({ enum: ['complete'] })
  status: string;
  @ApiProperty({ description: 'Credits held, a number with at most two decimals', example: 1250.5 })
  credit_balance: number;
  @ApiProperty()
  name: string;
  @ApiProperty({ description: 'True for a test (sandbox) account' })
  test_account: boolean;
}
