import { ApiProperty } from '@nestjs/swagger';
import { ErrorText } from '../../common/errors/error-catalogue';
import { TIMESTAMP_SCHEMA } from '../../common/http/openapi-schemas';
import { Field } from '../../common/validation/field';

const MATCHES = ['exact', 'first_word', 'pattern'] as const;
const MATCH_DESCRIPTION =
  '`exact`: the whole reply; `first_word`: its first word; `pattern`: the whole reply against a pattern where `*` is any run of characters and `?` one character. Case and surrounding punctuation are ignored.';
const LIST_ID = (what: string) => ({ kind: 'integer', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger(what) }, example: 7 }) as const;

export class CreateKeywordRuleDto {
  @Field({ kind: 'enum', required: true, values: MATCHES, messages: { invalid: 'match must be one of: exact, first_word, pattern' }, description: MATCH_DESCRIPTION })
  match: 'exact' | 'first_word' | 'pattern';

  @Field({
    kind: 'text',
    required: true,
    maxLength: 40,
    messages: { tooLong: ErrorText.keywordInvalid },
    example: 'JOIN',
    description: 'Letters, digits and spaces (a pattern may use `*` and `?`)',
  })
  keyword: string;

  @Field({ kind: 'text', description: 'One of the account’s dedicated or shared numbers; omit for all of them', example: '61400000001' })
  number?: string;

  @Field({ kind: 'text', maxLength: 1600, description: 'Auto-reply, sent from the number replied to and charged like any message', example: 'Thanks, you are on the list!' })
  reply?: string;

  @Field({ ...LIST_ID('add_to_list_id'), description: 'Add the number to this list (creating its contact if needed)' })
  add_to_list_id?: number;

  @Field({ ...LIST_ID('remove_from_list_id'), description: 'Remove the number from this list' })
  remove_from_list_id?: number;

  @Field({ kind: 'boolean', description: 'Opt the number out (the reply, if any, is its confirmation)' })
  opt_out?: boolean;

  @Field({ kind: 'boolean', description: 'Opt the number back in' })
  opt_in?: boolean;

  @Field({ kind: 'integer', min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('position') }, description: '1-based place among the rules (default: last)', example: 1 })
  position?: number;
}

export class UpdateKeywordRuleDto extends CreateKeywordRuleDto {
  @Field({ kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('rule_id') }, example: 3 })
  rule_id: number;
}

export class DeleteKeywordRuleDto {
  @Field({ kind: 'integer', required: true, min: 1, messages: { invalid: ErrorText.mustBePositiveInteger('rule_id') }, example: 3 })
  rule_id: number;
}

export class KeywordRuleDto {
  @ApiProperty({ type: 'integer', example: 3 }) rule_id: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Rules are tried in this order' }) position: number;
  @ApiProperty({ enum: MATCHES }) match: string;
  @ApiProperty({ example: 'JOIN', description: 'Upper case' }) keyword: string;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'null: every number of the account' }) number: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'Thanks, you are on the list!' }) reply: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 7 }) add_to_list_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null }) remove_from_list_id: number | null;
  @ApiProperty({ example: false }) opt_out: boolean;
  @ApiProperty({ example: false }) opt_in: boolean;
  @ApiProperty({ ...TIMESTAMP_SCHEMA, description: 'UTC' }) created_at: string;
}

export class BuiltInKeywordDto {
  @ApiProperty({ example: 'START' }) keyword: string;
  @ApiProperty({ type: [String], example: ['START', 'UNSTOP'] }) words: string[];
  @ApiProperty({ example: 'Opts the number back in and confirms it' }) action: string;
}

export class KeywordRulesDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: [KeywordRuleDto] }) results: KeywordRuleDto[];
  @ApiProperty({ type: [BuiltInKeywordDto], description: 'Answered when no rule of the account matches first' }) built_in: BuiltInKeywordDto[];
}

export class KeywordRuleCreatedDto extends KeywordRuleDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
}

export class KeywordRuleDeletedDto {
  @ApiProperty({ enum: ['complete'] }) status: string;
  @ApiProperty({ type: 'integer', example: 3 }) rule_id: number;
  @ApiProperty({ enum: [true] }) deleted: boolean;
}
