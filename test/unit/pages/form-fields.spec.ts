import { readFileSync } from 'node:fs';
import path from 'node:path';
import { failure } from '../../../src/common/errors/error-catalogue';
import { errorModel, fixableFormError } from '../../../src/pages/form-error';
import { fieldOfError } from '../../../src/pages/form-fields';
import { createHandlebars, VIEWS_ROOT } from '../../../src/pages/view-engine';

describe(fieldOfError.name, () => {
  it('names the field of an error whose condition is about one field', () => {
    expect(fieldOfError(failure('invalidPhoneNumber'))).toBe('number');
    expect(fieldOfError(failure('liveAbnChecksum'))).toBe('abn');
    expect(fieldOfError(failure('apiKeyCidrInvalid', '10.0.0.0/33'))).toBe('allowed_cidrs');
    expect(fieldOfError(failure('apiKeyCapInvalid', 1_000_000))).toBe('daily_message_cap');
    expect(fieldOfError(failure('passwordsDoNotMatch'))).toBe('confirmation');
    expect(fieldOfError(failure('composeNumbersRequired'))).toBe('numbers');
  });

  it('reads the field from a text that starts with it, renaming the words Billing uses and the API key’s Label', () => {
    expect(fieldOfError(failure('required', 'list_id'))).toBe('list_id');
    expect(fieldOfError(failure('required', 'Label'))).toBe('label');
    expect(fieldOfError(failure('quietHoursTimeInvalid', 'allowed_until'))).toBe('allowed_until');
    expect(fieldOfError(failure('unstorableText', 'reply'))).toBe('reply');
    expect(fieldOfError(failure('balanceSettingOutOfRange', 'The threshold', 1, 10_000_000))).toBe('below_credits');
    expect(fieldOfError(failure('required', 'The warning threshold'))).toBe('warn_below');
  });

  it('finds the condition of a catalogue text a shared check wrapped as invalidField', () => {
    expect(fieldOfError(failure('invalidField', 'credits must be a whole number'))).toBe('credits');
    expect(fieldOfError(failure('invalidField', 'Invalid phone number format'))).toBe('number');
    expect(fieldOfError(failure('invalidField', 'The reply must be at most 1600 characters'))).toBeUndefined();
  });

  it('names no field for an error about several or none, so it stays in the alert alone', () => {
    expect(fieldOfError(failure('signInFailed'))).toBeUndefined();
    expect(fieldOfError(failure('quietHoursWindowInvalid'))).toBeUndefined();
    expect(fieldOfError(failure('apiKeyScopesEmpty'))).toBeUndefined();
    expect(fieldOfError(failure('invalidWebhookUrl'))).toBeUndefined();
    expect(fieldOfError(failure('required', 'card'))).toBeUndefined();
    expect(fieldOfError(failure('required', 'Some words'))).toBeUndefined();
  });

  it('travels with a fixable error, in the page’s wording, to the model', () => {
    const error = fixableFormError(failure('abnLength'));
    expect(error).toEqual({ message: 'An ABN is 11 digits, such as 51 824 753 556', status: 400, field: 'abn' });
    expect(errorModel(error ?? undefined)).toEqual({ error: 'An ABN is 11 digits, such as 51 824 753 556', errorField: 'abn' });
    expect(errorModel(fixableFormError(failure('signInFailed')) ?? undefined, 'new')).toEqual({ error: 'Email or password is incorrect', errorForm: 'new' });
    expect(errorModel(undefined)).toEqual({});
  });
});

describe('fieldAria and the form-error partial', () => {
  const hbs = createHandlebars();
  hbs.registerPartial('form-error', readFileSync(path.join(VIEWS_ROOT, 'pages/views/partials/form-error.hbs'), 'utf8'));
  const render = (template: string, model: Record<string, unknown>) => hbs.compile(template)(model).replace(/\n/g, '');
  const page =
    '{{> form-error}}<input name="abn"{{fieldAria "abn" describedby="abn-hint"}}><input name="website"{{fieldAria "website"}}>{{#each keys}}<input{{fieldAria "daily_limit" form=id}}>{{/each}}';

  it('marks the field the error is about, described by the error’s text and then its hint; the others keep their hint alone', () => {
    const html = render(page, { ...errorModel({ message: 'Enter your ABN', field: 'abn' }), keys: [] });
    expect(html).toBe(
      '<div class="notice notice-error" role="alert"><p id="form-error">Enter your ABN</p></div><input name="abn" aria-invalid="true" aria-describedby="form-error abn-hint"><input name="website">',
    );
  });

  it('marks nothing when the error is about no field, or when there is none', () => {
    expect(render(page, { ...errorModel({ message: 'Email or password is incorrect' }), keys: [] })).not.toContain('aria-invalid');
    expect(render(page, { keys: [] })).toBe('<input name="abn" aria-describedby="abn-hint"><input name="website">');
  });

  it('marks a repeated field only in the form the error came from', () => {
    const html = render(page, { ...errorModel({ message: 'bad limit', field: 'daily_limit' }, '7'), keys: [{ id: 6 }, { id: 7 }] });
    expect(html).toContain('<input><input aria-invalid="true" aria-describedby="form-error">');
  });

  it('escapes what it writes', () => {
    expect(render('{{fieldAria "x" describedby=hint}}', { hint: '"><script>' })).toBe(' aria-describedby="&quot;&gt;&lt;script&gt;"');
  });
});
