import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { analyseMessage, DEFAULT_MAX_PARTS } from '../common/sms';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { ListsService } from '../lists/lists.service';
import { numericSenderValue } from '../senders/sender-value';
import { SendersService } from '../senders/senders.service';
import { builtInFor, isStopWord, KeywordActions } from './built-in-keywords';
import type { KeywordMatch } from './keyword-rule.entity';
import { toKeywordRuleCreated, toKeywordRuleDeleted, toKeywordRulesResult } from './keyword-rules.mapper';
import { KeywordRuleRow, KeywordRulesRepository, NewKeywordRule } from './keyword-rules.repository';
import { firstWordOf, normaliseReply, parseKeyword } from './keyword-text';

/** Rules per account: enough for every campaign keyword a business runs at once, and a bounded scan per reply. */
export const MAX_KEYWORD_RULES = 100;

export interface KeywordRuleCommand {
  match: KeywordMatch;
  keyword: string;
  number?: string;
  reply?: string;
  addToListId?: number;
  removeFromListId?: number;
  optOut?: boolean;
  optIn?: boolean;
  position?: number;
}

/**
 * An account's keyword rules: kept in order (API and dashboard), and matched against each reply after
 * STOP, the account's rules first, then the built-in START and HELP.
 */
@Injectable()
export class KeywordRulesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rules: KeywordRulesRepository,
    private readonly accounts: AccountsService,
    private readonly senders: SendersService,
    private readonly lists: ListsService,
  ) {}

  async list(accountId: number): Promise<ReturnType<typeof toKeywordRulesResult>> {
    return toKeywordRulesResult(await this.rules.list(accountId));
  }

  async rows(accountId: number): Promise<KeywordRuleRow[]> {
    return this.rules.list(accountId);
  }

  async create(accountId: number, command: KeywordRuleCommand): Promise<ReturnType<typeof toKeywordRuleCreated>> {
    const rule = await this.validated(accountId, command);
    return this.uow.run(async (tx) => {
      await this.rules.lockAccount(accountId, tx);
      if ((await this.rules.count(accountId, tx)) >= MAX_KEYWORD_RULES) throw failure('tooManyKeywordRules', MAX_KEYWORD_RULES);
      return toKeywordRuleCreated(await this.rules.insertAt(accountId, command.position ?? null, rule, tx));
    });
  }

  /**
   * Replaces a rule's match, keyword, number and actions with the command's (checked as on create);
   * `position` moves it among the others, else it keeps its place.
   */
  async update(accountId: number, ruleId: number, command: KeywordRuleCommand): Promise<ReturnType<typeof toKeywordRuleCreated>> {
    const rule = await this.validated(accountId, command);
    return this.uow.run(async (tx) => {
      await this.rules.lockAccount(accountId, tx);
      const updated = await this.rules.update(accountId, ruleId, command.position ?? null, rule, tx);
      if (!updated) throw failure('keywordRuleNotFound');
      return toKeywordRuleCreated(updated);
    });
  }

  /** A rule as stored, from a create or update command; throws the field's error when it breaks a rule. */
  private async validated(accountId: number, command: KeywordRuleCommand): Promise<NewKeywordRule> {
    const keyword = parseKeyword(command.keyword, command.match);
    if (keyword === null) throw failure('keywordInvalid');
    const rule: NewKeywordRule = {
      match: command.match,
      keyword,
      number: null,
      reply: command.reply === undefined || command.reply === '' ? null : command.reply,
      add_to_list_id: command.addToListId ?? null,
      remove_from_list_id: command.removeFromListId ?? null,
      opt_out: command.optOut ?? false,
      opt_in: command.optIn ?? false,
    };
    if (rule.opt_out && rule.opt_in) throw failure('keywordOptInAndOut');
    if (command.match !== 'pattern' && isStopWord(keyword.split(' ')[0]) && (rule.opt_out || rule.opt_in || rule.add_to_list_id || rule.remove_from_list_id)) {
      throw failure('keywordStopOnlyReply');
    }
    if (rule.reply !== null) {
      const analysis = analyseMessage(rule.reply, true);
      if ('error' in analysis || analysis.parts > DEFAULT_MAX_PARTS) throw failure('keywordReplyTooLong', DEFAULT_MAX_PARTS);
    }
    if (command.number !== undefined && command.number !== '') rule.number = await this.receivingNumber(accountId, command.number);
    for (const listId of [rule.add_to_list_id, rule.remove_from_list_id]) if (listId !== null) await this.lists.require(accountId, listId);
    return rule;
  }

  /** One rule as stored (the dashboard's edit form); null when the account has no such rule. */
  async row(accountId: number, ruleId: number): Promise<KeywordRuleRow | null> {
    return this.rules.find(accountId, ruleId);
  }

  async delete(accountId: number, ruleId: number): Promise<ReturnType<typeof toKeywordRuleDeleted>> {
    return this.uow.run(async (tx) => {
      await this.rules.lockAccount(accountId, tx);
      if (!(await this.rules.delete(accountId, ruleId, tx))) throw failure('keywordRuleNotFound');
      return toKeywordRuleDeleted(ruleId);
    });
  }

  /**
   * What a reply to `number` makes happen: the account's first matching rule, else a built-in keyword,
   * else null. One statement for the account's rules.
   */
  async actionsFor(accountId: number, number: string, text: string, tx?: Tx): Promise<KeywordActions | null> {
    const normalised = normaliseReply(text);
    if (normalised === '') return null;
    const rule = await this.rules.firstMatch(accountId, number, normalised, firstWordOf(normalised), tx);
    if (rule) {
      return {
        ruleId: rule.id,
        keyword: rule.keyword,
        reply: rule.reply,
        addToListId: rule.add_to_list_id,
        removeFromListId: rule.remove_from_list_id,
        optOut: rule.opt_out,
        optIn: rule.opt_in,
      };
    }
    return builtInFor(normalised, (await this.accounts.get(accountId, tx)).name);
  }

  /** The account's dedicated or shared number a rule listens on, normalised. */
  private async receivingNumber(accountId: number, raw: string): Promise<string> {
    const value = numericSenderValue(raw);
    const sender = value === null ? undefined : (await this.senders.active(accountId)).match(value);
    if (!sender || (sender.type !== 'dedicated' && sender.type !== 'shared')) throw failure('keywordRuleNumberInvalid');
    return sender.value;
  }
}
