import { CONTACT_PLACEHOLDER_FIELDS, applyOptout, compileTemplate, hasPlaceholders, optoutText, renderTemplate, type ContactFields } from '../../../../src/common/sms/template';

const ann: ContactFields = { first_name: 'Ann', last_name: 'Lee', company: 'Acme' };

describe('CONTACT_PLACEHOLDER_FIELDS', () => {
  it('lists exactly the ten lowercase contact field names', () => {
    expect([...CONTACT_PLACEHOLDER_FIELDS]).toEqual(['first_name', 'last_name', 'company', 'other', 'field_1', 'field_2', 'field_3', 'field_4', 'field_5', 'number']);
  });
});

describe(renderTemplate.name, () => {
  it('substitutes each contact field placeholder with its value', () => {
    const fields: ContactFields = {};
    CONTACT_PLACEHOLDER_FIELDS.forEach((name, i) => (fields[name] = `v${i}`));
    const template = CONTACT_PLACEHOLDER_FIELDS.map((name) => `{${name}}`).join(',');
    expect(renderTemplate(template, fields)).toBe('v0,v1,v2,v3,v4,v5,v6,v7,v8,v9');
  });

  it('substitutes the same placeholder every time it appears', () => {
    expect(renderTemplate('{first_name}, {first_name}!', ann)).toBe('Ann, Ann!');
  });

  it('renders a missing, undefined or null field as the empty string', () => {
    expect(renderTemplate('Hi {first_name} from {other}.', {})).toBe('Hi  from .');
    expect(renderTemplate('[{field_1}]', { field_1: undefined })).toBe('[]');
    expect(renderTemplate('[{field_1}]', { field_1: null })).toBe('[]');
  });

  it('leaves braces around unknown names untouched', () => {
    expect(renderTemplate('{foo} {field_6} {field_0} {} {first_name_x}', ann)).toBe('{foo} {field_6} {field_0} {} {first_name_x}');
  });

  it('matches placeholder names case-sensitively', () => {
    expect(renderTemplate('{First_Name} {FIRST_NAME} {first_name}', ann)).toBe('{First_Name} {FIRST_NAME} Ann');
  });

  it('does not accept whitespace inside the braces', () => {
    expect(renderTemplate('{ first_name } {first_name }', ann)).toBe('{ first_name } {first_name }');
  });

  it('keeps surrounding braces that are not part of a placeholder', () => {
    expect(renderTemplate('{{first_name}} {first_name', ann)).toBe('{Ann} {first_name');
  });

  it('does not expand placeholders that appear inside a substituted value', () => {
    const fields: ContactFields = { first_name: '{last_name}', last_name: 'Lee', company: '{optout}' };
    expect(renderTemplate('{first_name} {last_name} {company}', fields, ' Opt out: Reply Stop')).toBe('{last_name} Lee {optout}');
  });

  it('inserts values literally, including $ replacement patterns', () => {
    expect(renderTemplate('Hi {first_name}', { first_name: "$& $1 $$ $'" })).toBe("Hi $& $1 $$ $'");
  });

  it('leaves {optout} as written when no opt-out text is given', () => {
    expect(renderTemplate('Hi {first_name}{optout}', ann)).toBe('Hi Ann{optout}');
  });

  it('replaces {optout} with the given opt-out text after the contact fields', () => {
    expect(renderTemplate('Hi {first_name}.{optout}', ann, ' Opt out: Reply Stop')).toBe('Hi Ann. Opt out: Reply Stop');
  });

  it('does not expand placeholders inside the opt-out text', () => {
    expect(renderTemplate('{optout}', ann, ' OptOut https://x.au/{first_name}')).toBe(' OptOut https://x.au/{first_name}');
  });

  it('returns a template without placeholders unchanged', () => {
    expect(renderTemplate('Plain text, {no} fields.', ann)).toBe('Plain text, {no} fields.');
    expect(renderTemplate('', ann)).toBe('');
  });
});

describe(compileTemplate.name, () => {
  it('renders the same compiled template for many contacts', () => {
    const compiled = compileTemplate('Dear {first_name} {last_name}');
    const contacts: ContactFields[] = [ann, { first_name: 'Bo' }, {}];
    expect(contacts.map((c) => compiled.render(c))).toEqual(['Dear Ann Lee', 'Dear Bo ', 'Dear  ']);
  });

  it('gives the same output as renderTemplate', () => {
    const template = '{company}: hi {first_name} {foo} {optout}';
    expect(compileTemplate(template).render(ann, ' X')).toBe(renderTemplate(template, ann, ' X'));
  });

  it('reports its source and whether it has contact placeholders and {optout}', () => {
    expect(compileTemplate('Hi {first_name}')).toMatchObject({ source: 'Hi {first_name}', hasPlaceholders: true, hasOptout: false });
    expect(compileTemplate('Sale!{optout}')).toMatchObject({ hasPlaceholders: false, hasOptout: true });
    expect(compileTemplate('{First_Name}')).toMatchObject({ hasPlaceholders: false, hasOptout: false });
  });
});

describe(hasPlaceholders.name, () => {
  it('is true when the template has a contact placeholder', () => {
    expect(hasPlaceholders('Hi {first_name}')).toBe(true);
    expect(hasPlaceholders('Ref {field_5}')).toBe(true);
    expect(hasPlaceholders('{number}')).toBe(true);
  });

  it('is false for text without a contact placeholder, including {optout} alone', () => {
    expect(hasPlaceholders('Hello there')).toBe(false);
    expect(hasPlaceholders('{foo} {First_Name} { first_name }')).toBe(false);
    expect(hasPlaceholders('Sale now{optout}')).toBe(false);
    expect(hasPlaceholders('')).toBe(false);
  });

  it('gives the same answer on repeated calls', () => {
    expect([hasPlaceholders('{company}'), hasPlaceholders('{company}'), hasPlaceholders('{company}')]).toEqual([true, true, true]);
  });
});

describe(applyOptout.name, () => {
  it('replaces every {optout} with the opt-out text', () => {
    expect(applyOptout('A{optout} B{optout}', ' Opt out: Reply Stop')).toBe('A Opt out: Reply Stop B Opt out: Reply Stop');
  });

  it('leaves text without {optout} unchanged', () => {
    expect(applyOptout('No opt out {OPTOUT} {opt_out}', ' X')).toBe('No opt out {OPTOUT} {opt_out}');
  });

  it('inserts the opt-out text literally, including $ replacement patterns', () => {
    expect(applyOptout('x{optout}', ' OptOut https://a.au/?q=$&')).toBe('x OptOut https://a.au/?q=$&');
  });

  it('applies to the rendered text, after the contact fields of a template', () => {
    const rendered = renderTemplate('Hi {first_name}{optout}', ann);
    expect(applyOptout(rendered, optoutText('shared', ''))).toBe('Hi Ann Opt out: Reply Stop');
  });
});

describe(optoutText.name, () => {
  it('is exactly " Opt out: Reply Stop" for dedicated and shared numbers', () => {
    expect(optoutText('dedicated', 'https://o.au/abc')).toBe(' Opt out: Reply Stop');
    expect(optoutText('shared', 'https://o.au/abc')).toBe(' Opt out: Reply Stop');
  });

  it('is exactly " OptOut " followed by the link for alpha and own senders', () => {
    expect(optoutText('alpha', 'https://o.au/abc')).toBe(' OptOut https://o.au/abc');
    expect(optoutText('own', 'https://o.au/xyz')).toBe(' OptOut https://o.au/xyz');
  });
});

describe('compileTemplate of a text without placeholders', () => {
  it('renders the text itself, whatever the fields and opt-out text, and says it has neither', () => {
    const plain = compileTemplate('Hello, your order is ready. Reply STOP to opt out.');
    expect(plain.render({ first_name: 'Ann' }, 'OPT OUT')).toBe('Hello, your order is ready. Reply STOP to opt out.');
    expect([plain.source, plain.hasPlaceholders, plain.hasOptout]).toEqual(['Hello, your order is ready. Reply STOP to opt out.', false, false]);
  });

  it('renders the same as the token path for a text with braces that are not placeholders', () => {
    expect(compileTemplate('{not a placeholder}').render({ first_name: 'Ann' }, 'X')).toBe('{not a placeholder}');
  });
});
