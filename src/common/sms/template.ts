/**
 * Message templates with contact placeholders.
 *
 * A placeholder is `{name}` where name is exactly one of the lowercase contact
 * field names in CONTACT_PLACEHOLDER_FIELDS. Matching is case-sensitive and
 * exact: `{First_Name}`, `{foo}` and `{ first_name }` stay as written.
 *
 * Rendering is a single pass over the template: text substituted from a
 * contact field is never scanned again, so a contact value containing
 * `{first_name}` or `{optout}` appears literally.
 *
 * `{optout}` is not a contact field. It is replaced after the contact fields,
 * either by passing the opt-out text as the third argument of render /
 * renderTemplate (safe for contact data: done in the same pass, so `{optout}`
 * inside a contact value stays literal), or with applyOptout on text that
 * holds no contact data.
 */

export const CONTACT_PLACEHOLDER_FIELDS = ['first_name', 'last_name', 'company', 'other', 'field_1', 'field_2', 'field_3', 'field_4', 'field_5', 'number'] as const;

export type ContactField = (typeof CONTACT_PLACEHOLDER_FIELDS)[number];

/** Contact values by field; a missing, undefined or null field renders as ''. */
export type ContactFields = Partial<Record<ContactField, string | null | undefined>>;

export const OPTOUT_PLACEHOLDER = '{optout}';

export type SenderType = 'alpha' | 'own' | 'dedicated' | 'shared';

const FIELD_ALTERNATION = CONTACT_PLACEHOLDER_FIELDS.join('|');
/** Contact placeholders and {optout}; group 1 is the name. */
const TOKEN_RE = new RegExp(`\\{(${FIELD_ALTERNATION}|optout)\\}`, 'g');
/** Contact placeholders only (non-global, for test()). */
const CONTACT_PLACEHOLDER_RE = new RegExp(`\\{(?:${FIELD_ALTERNATION})\\}`);

/** A template parsed once, to render for many contacts. */
export interface CompiledTemplate {
  /** The template text it was compiled from. */
  readonly source: string;
  /** True when the template has at least one contact placeholder (not counting {optout}). */
  readonly hasPlaceholders: boolean;
  /** True when the template has at least one {optout}. */
  readonly hasOptout: boolean;
  /**
   * Substitute contact fields (missing → ''). When `optoutText` is given,
   * every `{optout}` of the template is replaced by it in the same pass;
   * otherwise `{optout}` is left as written.
   */
  render(fields: ContactFields, optoutText?: string): string;
}

/** A text without placeholders renders as itself: no tokens, arrays or closure to make (one per message of a batch). */
class PlainTemplate implements CompiledTemplate {
  readonly hasPlaceholders = false;
  readonly hasOptout = false;

  constructor(readonly source: string) {}

  render(): string {
    return this.source;
  }
}

/**
 * Parse `template` once. The result renders in a single pass over
 * precomputed literal/placeholder tokens.
 */
export function compileTemplate(template: string): CompiledTemplate {
  if (template.indexOf('{') === -1) return new PlainTemplate(template);
  // literals[k] precedes names[k]; literals has one more entry than names.
  const literals: string[] = [];
  const names: (ContactField | 'optout')[] = [];
  let last = 0;
  if (template.indexOf('{') !== -1) {
    TOKEN_RE.lastIndex = 0;
    for (let m = TOKEN_RE.exec(template); m !== null; m = TOKEN_RE.exec(template)) {
      literals.push(template.slice(last, m.index));
      names.push(m[1] as ContactField | 'optout');
      last = m.index + m[0].length;
    }
  }
  literals.push(template.slice(last));

  const hasOptout = names.includes('optout');
  const hasContactFields = names.some((n) => n !== 'optout');

  const render = (fields: ContactFields, optoutText?: string): string => {
    if (names.length === 0) return template;
    let out = literals[0];
    for (let k = 0; k < names.length; k++) {
      const name = names[k];
      if (name === 'optout') {
        out += optoutText === undefined ? OPTOUT_PLACEHOLDER : optoutText;
      } else {
        out += fields[name] ?? '';
      }
      out += literals[k + 1];
    }
    return out;
  };

  return { source: template, hasPlaceholders: hasContactFields, hasOptout, render };
}

/**
 * Render `template` for one contact (missing field → ''). Compiles on every
 * call: for many contacts use compileTemplate once and call render.
 * See CompiledTemplate.render for `optoutText`.
 */
export function renderTemplate(template: string, fields: ContactFields, optoutText?: string): string {
  return compileTemplate(template).render(fields, optoutText);
}

/**
 * True when `template` has at least one contact placeholder, so contact data
 * is needed to render it. `{optout}` does not count.
 */
export function hasPlaceholders(template: string): boolean {
  return template.indexOf('{') !== -1 && CONTACT_PLACEHOLDER_RE.test(template);
}

/**
 * Replace every `{optout}` in `text` with `optoutText`. Use on text that
 * holds no contact data; for rendered contact text pass `optoutText` to
 * render/renderTemplate instead, so `{optout}` inside a contact value stays literal.
 */
export function applyOptout(text: string, optoutText: string): string {
  if (text.indexOf(OPTOUT_PLACEHOLDER) === -1) return text;
  // split/join: no `$` pattern interpretation in optoutText.
  return text.split(OPTOUT_PLACEHOLDER).join(optoutText);
}

/**
 * The text that replaces `{optout}`: ` Opt out: Reply Stop` for dedicated and
 * shared numbers (recipients can reply), ` OptOut <link>` for alphanumeric and
 * own-number senders.
 */
export function optoutText(senderType: SenderType, optoutLink: string): string {
  switch (senderType) {
    case 'dedicated':
    case 'shared':
      return ' Opt out: Reply Stop';
    case 'alpha':
    case 'own':
      return ' OptOut ' + optoutLink;
    default: {
      const unknown: never = senderType;
      throw new RangeError(`Unknown sender type: ${String(unknown)}`);
    }
  }
}
