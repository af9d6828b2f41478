import { ApiProperty } from '@nestjs/swagger';

export class AccountResponseDto {
  @ApiProperty({ enum: ['complete'], example: 'complete' })
  status: string;
  @ApiProperty({ description: 'Credits held, a number with at most two decimals', example: 1250.5 })
  credit_balance: number;
  @ApiProperty({ example: 'Harbour Bakery' })
  name: string;
  @ApiProperty({ description: 'True for a test (sandbox) account', example: false })
  test_account: boolean;
}
