/**
 * Schema pieces the OpenAPI document repeats: the interface's fixed text forms, so generated clients and
 * validators know them exactly. Spread into @ApiProperty / @Field({ doc }).
 */
export const DAY_SCHEMA = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: '2026-11-21' } as const;

/** The interface's timestamp: UTC `YYYY-MM-DD HH:MM:SS`. */
export const TIMESTAMP_SCHEMA = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', example: '2026-11-21 06:00:00' } as const;

/** A normalised Australian mobile: `61` + 9 digits, no plus. */
export const MOBILE_SCHEMA = { type: 'string', pattern: '^614\\d{8}$', example: '61412345678' } as const;

/** Credits as a string with two decimals (message lookups and history). */
export const CREDITS_TEXT_SCHEMA = { type: 'string', pattern: '^\\d+\\.\\d{2}$', example: '1.00' } as const;

export const UUID_EXAMPLE = '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b';
