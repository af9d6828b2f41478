import { ApiProperty } from '@nestjs/swagger';
import { MOBILE_SCHEMA, TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';
import { ErrorText } from '../../common/errors/error-catalogue';
import { normaliseAuMobile } from '../../common/phone';
import { cardLast4Error, containsError, creditsError, numberError } from '../purchase-input';

const LAST4 = { type: 'string', pattern: '^[0-9]{4}$', example: '4242' } as const;
// Dollars as JSON numbers with at most two decimals (no multipleOf: 20.24 is not an exact binary multiple of 0.01).
const MONEY = { type: 'number', minimum: 0 } as const;
const STATE = { enum: ['fulfilled', 'held'], description: '`held`: the payment is held for review by the provider; nothing is delivered until it is released' } as const;

const CARD_LAST4 = {
  kind: 'text',
  check: cardLast4Error,
  description: 'Last 4 digits of the saved card to charge; required when more than one card is saved',
  example: '4242',
  doc: { pattern: LAST4.pattern },
} as const;

/** Validated after the key's purchases switch (PurchasesSwitch), with the supplement's texts. */
export class BuyCreditsDto {
  @Field({ kind: 'integer', required: true, check: creditsError, min: 500, max: 10_000_000, example: 1000, description: 'Credits to buy (at least 500)' })
  credits: number;

  @Field(CARD_LAST4)
  card_last4?: string;
}

export class CreditPurchaseDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty(STATE) state: string;
  @ApiProperty({ type: 'integer' }) purchase_id: number;
  @ApiProperty({ type: 'integer', example: 1000 }) credits: number;
  @ApiProperty({ ...MONEY, example: 35, description: 'AUD excluding GST' }) amount_ex_gst: number;
  @ApiProperty({ ...MONEY, example: 3.5, description: 'GST (10%), AUD' }) gst: number;
  @ApiProperty({ ...MONEY, example: 38.5, description: 'AUD including GST: what was charged' }) amount_inc_gst: number;
  @ApiProperty(LAST4) card_last4: string;
  @ApiProperty({ ...MONEY, description: 'The balance after the purchase (unchanged while held)' }) credit_balance: number;
  @ApiProperty({ type: 'string', pattern: '^INV-\\d{8}$', example: 'INV-00000042' }) invoice_number: string;
}

export class BuyNumberDto {
  /** Normalised (61…) once accepted. */
  @Field({
    kind: 'text',
    required: true,
    check: numberError,
    convert: (value) => normaliseAuMobile(value as string),
    example: '0412345678',
    description: 'A number from GET /v1/available-numbers (any Australian mobile form)',
  })
  number: string;

  @Field(CARD_LAST4)
  card_last4?: string;
}

export class NumberPurchaseDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty(STATE) state: string;
  @ApiProperty({ type: 'integer' }) purchase_id: number;
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) purchased_at: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC; 12 months after the purchase' }) expires_at: string;
  @ApiProperty({ enum: [true], description: 'Renews yearly on the same card' }) renews: boolean;
  @ApiProperty({ ...MONEY, description: 'Yearly price, AUD excluding GST' }) amount_ex_gst: number;
  @ApiProperty({ ...MONEY, description: 'GST (10%), AUD' }) gst: number;
  @ApiProperty({ ...MONEY, description: 'AUD including GST: what was charged' }) amount_inc_gst: number;
  @ApiProperty(LAST4) card_last4: string;
  @ApiProperty({ type: 'string', pattern: '^INV-\\d{8}$', example: 'INV-00000043' }) invoice_number: string;
}

export class AvailableNumbersQuery {
  @Field({ kind: 'text', source: 'query', check: containsError, description: 'Only numbers whose digits contain these (up to 11 digits)', doc: { pattern: '^[0-9]{1,11}$' } })
  contains?: string;

  @Field({ kind: 'integer', source: 'query', min: 1, max: 200, messages: { invalid: ErrorText.limitOutOfRange }, description: 'At most this many, 1-200 (default 100)' })
  limit?: number;
}

export class AvailableNumberDto {
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ ...MONEY, example: 120, description: 'Price for 12 months, AUD excluding GST' }) annual_price_ex_gst: number;
}

export class AvailableNumbersDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: [AvailableNumberDto] }) results: AvailableNumberDto[];
}

export class DedicatedNumberDto {
  @ApiProperty(MOBILE_SCHEMA) number: string;
  @ApiProperty({ enum: ['free', 'paid'], description: '`free`: the free number (no expiry); `paid`: bought for 12 months' }) kind: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC: when it was claimed or bought' }) purchased_at: string;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, nullable: true, description: 'UTC; null for the free number' }) expires_at: string | null;
  @ApiProperty({ type: 'boolean' }) renews: boolean;
  @ApiProperty({
    enum: ['active', 'retrying'],
    nullable: true,
    description:
      '`active`: renews on the same card before expiry; `retrying`: the last renewal charge was declined and is being retried (the number is released after the grace period); null for the free number',
  })
  renewal_state: string | null;
}

export class DedicatedNumbersDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: [DedicatedNumberDto] }) results: DedicatedNumberDto[];
}
