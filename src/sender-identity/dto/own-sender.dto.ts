import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MOBILE_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export class RegisterOwnSenderDto {
  @Field({ kind: 'text', required: true, description: 'Your mobile, in any Australian mobile form', example: '0412 345 678' })
  number: string;

  @Field({ kind: 'text', description: 'What you call this sender (at most 100 characters)', example: 'Sam’s mobile', doc: { maxLength: 100 } })
  label?: string;
}

export class OwnSenderRegisteredDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty(MOBILE_SCHEMA) sender: string;
  @ApiProperty({ enum: ['own'], example: 'own' }) type: string;
  @ApiProperty({ enum: ['pending'], description: 'Active once the texted link is opened', example: 'pending' }) verification: string;
  @ApiPropertyOptional({
    description: 'Test accounts only: the confirmation text is simulated and reaches no phone, so its link is answered here; open it to complete the flow',
    example: 'https://dashboard.example/senders/confirm/3q2-7wEFLk0rT1mNcVv9Aw',
  })
  test_confirmation_url?: string;
}

export class RemoveSenderDto {
  @Field({ kind: 'text', required: true, description: 'The sender to deactivate: a Sender ID exactly, a number in any form', example: 'MyBrand' })
  sender: string;
}

export class SenderRemovedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ description: 'The sender as stored (numbers normalised)', example: 'MyBrand' }) sender: string;
  @ApiProperty({ enum: ['alpha', 'own'], example: 'alpha' }) type: string;
  @ApiProperty({ enum: [true], example: true }) removed: boolean;
}
