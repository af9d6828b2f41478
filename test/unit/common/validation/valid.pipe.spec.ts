import { ArgumentMetadata } from '@nestjs/common';
import { DomainError } from '../../../../src/common/errors/domain-error';
import { Field } from '../../../../src/common/validation/field';
import { ValidPipe } from '../../../../src/common/validation/valid.pipe';

class ExampleDto {
  @Field({ kind: 'array', required: true, maxItems: 3 })
  messages: unknown[];

  @Field({ kind: 'boolean' })
  shorten_urls?: boolean;

  @Field({ kind: 'integer', source: 'query', min: 1, max: 99 })
  limit?: number;
}

const body: ArgumentMetadata = { type: 'body', metatype: ExampleDto };
const query: ArgumentMetadata = { type: 'query', metatype: ExampleDto };

/** The text of the 400 the pipe throws. */
function errorOf(fn: () => unknown): { error: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return { error: (error as DomainError).message };
  }
  throw new Error('expected a failure');
}

describe(ValidPipe.name, () => {
  const pipe = new ValidPipe();

  it('answers the first failing field in declaration order with its text', () => {
    expect(errorOf(() => pipe.transform({ shorten_urls: 'yes' }, body))).toEqual({ error: 'messages is required' });
    expect(errorOf(() => pipe.transform({ messages: [1], shorten_urls: 'yes' }, body))).toEqual({ error: 'shorten_urls must be a boolean' });
  });

  it('returns only the declared fields, leaving array entries as they came (never copied or converted)', () => {
    const entries = [{ to: '0412345678', nested: { deep: true } }];
    const out = pipe.transform({ messages: entries, shorten_urls: true, extra: 'dropped' }, body) as Record<string, unknown>;
    expect(out).toEqual({ messages: entries, shorten_urls: true });
    expect(out.messages).toBe(entries);
  });

  it('still applies the rules when a body carries its own `constructor` or `__proto__`-like keys', () => {
    const hostile = JSON.parse('{"constructor": {"name": "x"}, "messages": "not an array"}') as unknown;
    expect(errorOf(() => pipe.transform(hostile, body))).toEqual({ error: 'messages must be an array' });
  });

  it('converts query integers and refuses a query value out of range', () => {
    expect(pipe.transform({ messages: [1], limit: '5' }, query)).toEqual({ messages: [1], limit: 5 });
    expect(errorOf(() => pipe.transform({ messages: [1], limit: '500' }, query))).toEqual({ error: 'limit must be between 1 and 99' });
  });
});
