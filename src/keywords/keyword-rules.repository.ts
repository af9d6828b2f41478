import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { KeywordMatch } from './keyword-rule.entity';

export interface KeywordRuleRow {
  id: number;
  position: number;
  match: KeywordMatch;
  keyword: string;
  number: string | null;
  reply: string | null;
  add_to_list_id: number | null;
  remove_from_list_id: number | null;
  opt_out: boolean;
  opt_in: boolean;
  created_at: Date;
}

export type NewKeywordRule = Omit<KeywordRuleRow, 'id' | 'position' | 'created_at'>;

const COLUMNS = 'id, position, match, keyword, number, reply, add_to_list_id, remove_from_list_id, opt_out, opt_in, created_at';

@Injectable()
export class KeywordRulesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(accountId: number, tx?: Tx): Promise<KeywordRuleRow[]> {
    const { rows } = await sql<KeywordRuleRow>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM keyword_rules WHERE account_id = $1 ORDER BY position, id`, [accountId]);
    return rows;
  }

  async find(accountId: number, ruleId: number, tx?: Tx): Promise<KeywordRuleRow | null> {
    const { rows } = await sql<KeywordRuleRow>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM keyword_rules WHERE account_id = $1 AND id = $2`, [accountId, ruleId]);
    return rows[0] ?? null;
  }

  /** Serialises rule changes of one account (positions are renumbered under it). */
  async lockAccount(accountId: number, tx: Tx): Promise<void> {
    await sql(tx, `SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, [accountId]);
  }

  async count(accountId: number, tx: Tx): Promise<number> {
    const { rows } = await sql<{ n: number }>(tx, `SELECT count(*)::int AS n FROM keyword_rules WHERE account_id = $1`, [accountId]);
    return rows[0].n;
  }

  /**
   * Inserts a rule at a 1-based position among the account's rules (after the last when null or past
   * the end), moving the rules from there down one.
   */
  async insertAt(accountId: number, position: number | null, rule: NewKeywordRule, tx: Tx): Promise<KeywordRuleRow> {
    const { rows: last } = await sql<{ max: number }>(tx, `SELECT coalesce(max(position), 0)::int AS max FROM keyword_rules WHERE account_id = $1`, [accountId]);
    const at = position === null || position > last[0].max ? last[0].max + 1 : position;
    await sql(tx, `UPDATE keyword_rules SET position = position + 1 WHERE account_id = $1 AND position >= $2`, [accountId, at]);
    const { rows } = await sql<KeywordRuleRow>(
      tx,
      `INSERT INTO keyword_rules (account_id, position, match, keyword, number, reply, add_to_list_id, remove_from_list_id, opt_out, opt_in)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [accountId, at, rule.match, rule.keyword, rule.number, rule.reply, rule.add_to_list_id, rule.remove_from_list_id, rule.opt_out, rule.opt_in],
    );
    return rows[0];
  }

  /**
   * Rewrites a rule and, when `position` is given, moves it there (1-based; past the end is last), the
   * rules in between shifting one place; null when the account has no such rule.
   */
  async update(accountId: number, ruleId: number, position: number | null, rule: NewKeywordRule, tx: Tx): Promise<KeywordRuleRow | null> {
    const current = await this.find(accountId, ruleId, tx);
    if (!current) return null;
    let at = current.position;
    if (position !== null) {
      const { rows: last } = await sql<{ max: number }>(tx, `SELECT max(position)::int AS max FROM keyword_rules WHERE account_id = $1`, [accountId]);
      at = Math.min(position, last[0].max);
      if (at < current.position) {
        await sql(tx, `UPDATE keyword_rules SET position = position + 1 WHERE account_id = $1 AND position >= $2 AND position < $3`, [accountId, at, current.position]);
      } else if (at > current.position) {
        await sql(tx, `UPDATE keyword_rules SET position = position - 1 WHERE account_id = $1 AND position > $2 AND position <= $3`, [accountId, current.position, at]);
      }
    }
    const { rows } = await sql<KeywordRuleRow>(
      tx,
      `UPDATE keyword_rules SET position = $3, match = $4, keyword = $5, number = $6, reply = $7, add_to_list_id = $8, remove_from_list_id = $9, opt_out = $10, opt_in = $11
        WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [accountId, ruleId, at, rule.match, rule.keyword, rule.number, rule.reply, rule.add_to_list_id, rule.remove_from_list_id, rule.opt_out, rule.opt_in],
    );
    return rows[0];
  }

  /** Deletes a rule and closes the gap it leaves; false when the account has no such rule. */
  async delete(accountId: number, ruleId: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql<{ position: number }>(tx, `DELETE FROM keyword_rules WHERE account_id = $1 AND id = $2 RETURNING position`, [accountId, ruleId]);
    if (rows.length === 0) return false;
    await sql(tx, `UPDATE keyword_rules SET position = position - 1 WHERE account_id = $1 AND position > $2`, [accountId, rows[0].position]);
    return true;
  }

  /**
   * The account's first rule, in order, that a reply to `number` matches: one statement over the
   * account's rules (keyword-text.ts `ruleMatches` is the same test in memory). A pattern's `*` and `?`
   * become LIKE's `%` and `_`; keywords hold neither of those nor a backslash.
   */
  async firstMatch(accountId: number, number: string, normalised: string, firstWord: string, tx?: Tx): Promise<KeywordRuleRow | null> {
    const { rows } = await sql<KeywordRuleRow>(
      tx ?? this.dataSource,
      `SELECT ${COLUMNS} FROM keyword_rules
        WHERE account_id = $1 AND (number IS NULL OR number = $2)
          AND CASE match WHEN 'exact' THEN keyword = $3
                         WHEN 'first_word' THEN keyword = $4
                         ELSE $3 LIKE replace(replace(keyword, '*', '%'), '?', '_') END
        ORDER BY position, id LIMIT 1`,
      [accountId, number, normalised, firstWord],
    );
    return rows[0] ?? null;
  }
}
