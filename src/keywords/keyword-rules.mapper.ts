import { formatUtc } from '../common/time/format';
import { BUILT_IN_KEYWORDS } from './built-in-keywords';
import type { KeywordRuleRow } from './keyword-rules.repository';

export interface KeywordRuleView {
  rule_id: number;
  position: number;
  match: string;
  keyword: string;
  number: string | null;
  reply: string | null;
  add_to_list_id: number | null;
  remove_from_list_id: number | null;
  opt_out: boolean;
  opt_in: boolean;
  created_at: string;
}

export const toKeywordRuleView = (row: KeywordRuleRow): KeywordRuleView => ({
  rule_id: row.id,
  position: row.position,
  match: row.match,
  keyword: row.keyword,
  number: row.number,
  reply: row.reply,
  add_to_list_id: row.add_to_list_id,
  remove_from_list_id: row.remove_from_list_id,
  opt_out: row.opt_out,
  opt_in: row.opt_in,
  created_at: formatUtc(row.created_at),
});

const BUILT_IN_VIEWS = BUILT_IN_KEYWORDS.map((b) => ({ keyword: b.name, words: [...b.words], action: b.describe }));

export const toKeywordRulesResult = (rows: KeywordRuleRow[]) => ({ status: 'complete' as const, results: rows.map(toKeywordRuleView), built_in: BUILT_IN_VIEWS });
export const toKeywordRuleCreated = (row: KeywordRuleRow) => ({ status: 'complete' as const, ...toKeywordRuleView(row) });
export const toKeywordRuleDeleted = (ruleId: number) => ({ status: 'complete' as const, rule_id: ruleId, deleted: true });
