import { ApiProperty } from '@nestjs/swagger';
import { Field } from '../../common/validation/field';

const TIME = { type: 'string', pattern: '^\\d{2}:\\d{2}$' } as const;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export class UpdateQuietHoursDto {
  @Field({ kind: 'boolean', description: 'Turn quiet hours on or off (off until turned on)' })
  enabled?: boolean;

  @Field({ kind: 'text', description: 'Local time sending may start, HH:MM', example: '09:00', doc: TIME })
  allowed_from?: string;

  @Field({ kind: 'text', description: 'Local time sending must stop, HH:MM (24:00 for midnight)', example: '20:00', doc: TIME })
  allowed_until?: string;

  @Field({ kind: 'array', description: 'Weekdays sending is allowed on', items: { type: 'string', enum: DAYS }, example: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] })
  days?: unknown[];

  @Field({
    kind: 'array',
    description: 'Local dates with no sending (public holidays), YYYY-MM-DD, at most 100',
    items: { type: 'string', format: 'date' },
    example: ['2026-12-25'],
  })
  skip_dates?: unknown[];

  @Field({
    kind: 'text',
    nullable: true,
    description: 'The contact field holding a recipient’s state code (NSW, VIC…) or zone name; empty: the account’s time zone for everyone',
    example: 'field_1',
  })
  zone_field?: string | null;
}

export class QuietHoursDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ example: true }) enabled: boolean;
  @ApiProperty({ ...TIME, example: '09:00' }) allowed_from: string;
  @ApiProperty({ ...TIME, example: '20:00' }) allowed_until: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: DAYS }, example: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] }) days: string[];
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'date' }, example: ['2026-12-25'] }) skip_dates: string[];
  @ApiProperty({ type: 'string', nullable: true, example: 'field_1' }) zone_field: string | null;
}
