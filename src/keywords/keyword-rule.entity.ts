import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type KeywordMatch = 'exact' | 'first_word' | 'pattern';

/** One of an account's keyword rules: what a reply must say, on which number, and what then happens. */
@Entity({ name: 'keyword_rules' })
@Check('keyword_rules_match_check', "match IN ('exact', 'first_word', 'pattern')")
@Check('keyword_rules_keyword_check', "keyword ~ '^[A-Z0-9*? ]{1,40}$'")
// The account's rules in the order they are tried (the one matching statement reads it).
@Index('keyword_rules_account_position_idx', ['accountId', 'position', 'id'])
export class KeywordRule {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'keyword_rules_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** Rules are tried in ascending position (then id); the first that matches acts. */
  @Column({ name: 'position', type: 'integer' })
  position: number;

  @Column({ name: 'match', type: 'text' })
  match: KeywordMatch;

  /** Upper case; a pattern's `*` is any run of characters and `?` any one character. */
  @Column({ name: 'keyword', type: 'text' })
  keyword: string;

  /** The account's receiving number the rule listens on; null for all of them. */
  @Column({ name: 'number', type: 'text', nullable: true })
  number: string | null;

  /** The auto-reply, sent from the number replied to; null for none. */
  @Column({ name: 'reply', type: 'text', nullable: true })
  reply: string | null;

  @ForeignKey('ContactList', { name: 'keyword_rules_add_to_list_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'add_to_list_id', type: 'bigint', nullable: true })
  addToListId: number | null;

  @ForeignKey('ContactList', { name: 'keyword_rules_remove_from_list_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'remove_from_list_id', type: 'bigint', nullable: true })
  removeFromListId: number | null;

  @Column({ name: 'opt_out', type: 'boolean', default: false })
  optOut: boolean;

  @Column({ name: 'opt_in', type: 'boolean', default: false })
  optIn: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
