import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { UUID_EXAMPLE } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

export class CancelMessagesDto {
  @Field({ kind: 'text', format: 'uuid', description: 'First in precedence', example: UUID_EXAMPLE })
  message_id?: string;
  @Field({ kind: 'integer', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('send_id') }, description: 'Second in precedence' })
  send_id?: number;
  @Field({ kind: 'text', description: 'Third in precedence' })
  custom_ref?: string;
}

export class CancelledByMessageDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ format: 'uuid', example: UUID_EXAMPLE }) message_id: string;
  @ApiProperty({ example: true }) cancelled: boolean;
  @ApiProperty({ description: 'Credits', example: 1 }) credits_refunded: number;
}

export class CancelledBySendDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 501 }) send_id: number;
  @ApiProperty({ type: 'integer', example: 2 }) cancelled_count: number;
  @ApiProperty({ description: 'Credits', example: 2 }) credits_refunded: number;
}

export class CancelledByCustomRefDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ example: 'order-1001' }) custom_ref: string;
  @ApiProperty({ type: 'integer', example: 2 }) cancelled_count: number;
  @ApiProperty({ description: 'Credits', example: 2 }) credits_refunded: number;
}

export const ApiCancelOk = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  ApiExtraModels(CancelledByMessageDto, CancelledBySendDto, CancelledByCustomRefDto)(target, key, descriptor);
  ApiOkResponse({
    schema: { oneOf: [CancelledByMessageDto, CancelledBySendDto, CancelledByCustomRefDto].map((m) => ({ $ref: getSchemaPath(m) })) },
  })(target, key, descriptor);
};
