import { ApiProperty } from '@nestjs/swagger';

/** `carrier_error`: why the carrier refused a part at submission, in the SMSC's own terms (SMPP command_status). */
export class CarrierErrorDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: "The SMSC's command_status in its submit_sm_resp", example: 11 }) code: number;
  @ApiProperty({ description: "The status's SMPP name and hex value ('status 0x…' for one SMPP does not name)", example: 'ESME_RINVDSTADR (0x0000000B)' })
  description: string;
}
