import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { BUILT_IN_KEYWORDS } from '../../keywords/built-in-keywords';
import type { KeywordMatch } from '../../keywords/keyword-rule.entity';
import { KeywordRuleCommand, KeywordRulesService } from '../../keywords/keyword-rules.service';
import { ListsService } from '../../lists/lists.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { SendersService } from '../../senders/senders.service';
import type { DashboardUser } from '../dashboard-user';
import { show } from '../format';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

const MATCHES: ReadonlyArray<{ value: KeywordMatch; label: string }> = [
  { value: 'first_word', label: 'First word is' },
  { value: 'exact', label: 'Whole reply is' },
  { value: 'pattern', label: 'Whole reply matches pattern (* any text, ? one character)' },
];

type Typed = Record<'match' | 'keyword' | 'number' | 'reply' | 'add_to_list_id' | 'remove_from_list_id' | 'standing' | 'position', string>;
const EMPTY: Typed = { match: 'first_word', keyword: '', number: '', reply: '', add_to_list_id: '', remove_from_list_id: '', standing: '', position: '' };

/** A positive whole number typed in a form, or undefined when left blank (anything else: the field's 400). */
function optionalId(text: string, field: string): number | undefined {
  if (text === '') return undefined;
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw failure('mustBePositiveInteger', field);
  return Number(text);
}

const typedOf = (form: FormBody | undefined) => Object.fromEntries(Object.keys(EMPTY).map((k) => [k, formText(form, k)])) as Typed;

/** A rule id from the path; anything else is a rule that does not exist. */
function ruleIdOf(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw failure('keywordRuleNotFound');
  return Number(id);
}

/** The form as the API's command, with the API's texts for what the form itself can get wrong. */
function commandOf(typed: Typed): KeywordRuleCommand {
  if (!MATCHES.some((m) => m.value === typed.match)) throw failure('invalidField', 'match must be one of: exact, first_word, pattern');
  if (typed.keyword === '') throw failure('pageKeywordRequired');
  return {
    match: typed.match as KeywordMatch,
    keyword: typed.keyword,
    number: typed.number,
    reply: typed.reply,
    addToListId: optionalId(typed.add_to_list_id, 'add_to_list_id'),
    removeFromListId: optionalId(typed.remove_from_list_id, 'remove_from_list_id'),
    optOut: typed.standing === 'opt_out',
    optIn: typed.standing === 'opt_in',
    position: optionalId(typed.position, 'position'),
  };
}

/** Keywords (`manage_contacts`): the account's keyword rules in order, made, changed and deleted through the API's own service. */
@Injectable()
export class KeywordsPageService {
  constructor(
    private readonly rules: KeywordRulesService,
    private readonly senders: SendersService,
    private readonly lists: ListsService,
  ) {}

  /** What the rule form offers (numbers, lists, match kinds), with the typed values selected. */
  private async formChoices(user: DashboardUser, typed: Typed) {
    const [senders, lists] = await Promise.all([this.senders.current(user.accountId), this.lists.names(user.accountId)]);
    const numbers = senders.filter((s) => s.status === 'active' && (s.type === 'dedicated' || s.type === 'shared')).map((s) => s.value);
    return {
      listName: new Map(lists.map((l) => [l.id, l.name])),
      form: {
        matches: MATCHES.map((m) => ({ ...m, selected: m.value === typed.match })),
        numbers: numbers.map((n) => ({ value: n, selected: n === typed.number })),
        lists: lists.map((l) => ({ id: l.id, name: l.name, addSelected: String(l.id) === typed.add_to_list_id, removeSelected: String(l.id) === typed.remove_from_list_id })),
        typed,
        standingOut: typed.standing === 'opt_out',
        standingIn: typed.standing === 'opt_in',
      },
    };
  }

  async page(user: DashboardUser, notice?: unknown, error?: FormError, typed: Typed = EMPTY): Promise<PageResult> {
    const [rows, { listName, form }] = await Promise.all([this.rules.rows(user.accountId), this.formChoices(user, typed)]);
    return view(
      'dashboard/views/keywords',
      {
        title: 'Keywords',
        notice: noticeFor(notice),
        ...errorModel(error),
        rows: rows.map((r) => ({
          id: r.id,
          position: r.position,
          match: MATCHES.find((m) => m.value === r.match)!.label,
          keyword: r.keyword,
          number: r.number ?? 'All numbers',
          actions: [
            r.opt_out ? 'Opt out' : null,
            r.opt_in ? 'Opt back in' : null,
            r.add_to_list_id !== null ? `Add to ${listName.get(r.add_to_list_id) ?? 'a deleted list'}` : null,
            r.remove_from_list_id !== null ? `Remove from ${listName.get(r.remove_from_list_id) ?? 'a deleted list'}` : null,
          ].filter((a): a is string => a !== null),
          reply: r.reply,
          createdAt: show.time(r.created_at, user.timeZone),
        })),
        builtIn: BUILT_IN_KEYWORDS.map((b) => ({ words: b.words.join(', '), action: b.describe })),
        ...form,
      },
      error?.status ?? 200,
    );
  }

  async create(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const typed = typedOf(form);
    return withFormErrors<PageResult>(
      async () => {
        await this.rules.create(user.accountId, commandOf(typed));
        return redirectTo(withNotice(PAGES.keywords.path, 'keyword_rule_created'));
      },
      (error) => this.page(user, undefined, error, typed),
    );
  }

  /** The edit form of one rule, filled from the rule (or from what was typed, after an error). */
  async editPage(user: DashboardUser, id: string, error?: FormError, typed?: Typed): Promise<PageResult> {
    const ruleId = ruleIdOf(id);
    const rows = await this.rules.rows(user.accountId);
    const rule = rows.find((r) => r.id === ruleId);
    if (!rule) throw failure('keywordRuleNotFound');
    const shown: Typed = typed ?? {
      match: rule.match,
      keyword: rule.keyword,
      number: rule.number ?? '',
      reply: rule.reply ?? '',
      add_to_list_id: rule.add_to_list_id === null ? '' : String(rule.add_to_list_id),
      remove_from_list_id: rule.remove_from_list_id === null ? '' : String(rule.remove_from_list_id),
      standing: rule.opt_out ? 'opt_out' : rule.opt_in ? 'opt_in' : '',
      position: String(rule.position),
    };
    const { form } = await this.formChoices(user, shown);
    return view(
      'dashboard/views/keyword-edit',
      {
        title: `Edit the rule for ${rule.keyword}`,
        ...errorModel(error),
        keyword: rule.keyword,
        position: rule.position,
        count: rows.length,
        action: `${PAGES.keywords.path}/${ruleId}`,
        ...form,
      },
      error?.status ?? 200,
    );
  }

  async update(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const ruleId = ruleIdOf(id);
    const typed = typedOf(form);
    return withFormErrors<PageResult>(
      async () => {
        await this.rules.update(user.accountId, ruleId, commandOf(typed));
        return redirectTo(withNotice(PAGES.keywords.path, 'keyword_rule_updated'));
      },
      (error) => this.editPage(user, id, error, typed),
    );
  }

  async delete(user: DashboardUser, id: string): Promise<PageResult> {
    await this.rules.delete(user.accountId, ruleIdOf(id));
    return redirectTo(withNotice(PAGES.keywords.path, 'keyword_rule_deleted'));
  }
}
