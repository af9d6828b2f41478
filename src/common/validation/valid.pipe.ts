import { ArgumentMetadata, Injectable, PipeTransform, Type } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { ErrorText, failure } from '../errors/error-catalogue';
import { convertField, fieldSpecs } from './field';

/**
 * Validates a body or query against its DTO's @Field specs and returns a plain object holding only
 * the declared fields, converted (query integers become numbers). The first failure, in declaration
 * order, is answered 400 with its exact text.
 */
@Injectable()
export class ValidPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const dto = metadata.metatype as Type<object> | undefined;
    if (!dto || (metadata.type !== 'body' && metadata.type !== 'query')) return value;
    const specs = fieldSpecs(dto.prototype);
    // A DTO checked by its service still gets an object: a missing body must never reach a handler as undefined.
    if (specs.size === 0) return metadata.type === 'body' && (value === undefined || value === null) ? {} : value;
    const input = (value ?? {}) as Record<string, unknown>;
    // The declared fields on an instance of the DTO are all the validator reads (so a body's own
    // `constructor` key cannot hide the DTO's rules). plainToInstance would deep-copy the whole body
    // first: every entry of a 10000-message batch, which nothing validates here.
    const instance = Object.create(dto.prototype) as Record<string, unknown>;
    for (const name of specs.keys()) if (Object.prototype.hasOwnProperty.call(input, name)) instance[name] = input[name];
    const errors = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false });
    if (errors.length > 0) {
      const order = [...specs.keys()];
      errors.sort((a, b) => order.indexOf(a.property) - order.indexOf(b.property));
      throw failure('invalidField', Object.values(errors[0].constraints ?? {})[0] ?? ErrorText.badRequest);
    }
    const out: Record<string, unknown> = {};
    for (const [name, spec] of specs) {
      if (Object.prototype.hasOwnProperty.call(input, name)) {
        const converted = convertField(spec, input[name]);
        if (converted !== undefined) out[name] = converted;
      }
    }
    return out;
  }
}
