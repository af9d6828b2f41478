import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ErrorText } from '../errors/error-catalogue';
import { isStorableText } from './storable-text';

/**
 * One decorator per request field: documents it (OpenAPI) and validates it with exactly one
 * class-validator constraint whose message is the interface's text. One constraint per field keeps
 * the reported error deterministic (class-validator runs stacked decorators bottom-up); fields are
 * checked in declaration order and the first failure is the answer.
 */
export type FieldKind = 'text' | 'integer' | 'boolean' | 'enum' | 'array' | 'object';

export interface FieldSpec {
  kind: FieldKind;
  required?: boolean;
  /** Body fields arrive typed; query fields arrive as strings and are converted. */
  source?: 'body' | 'query';
  min?: number;
  max?: number;
  maxLength?: number;
  /** Arrays: bounds on the number of items. */
  minItems?: number;
  maxItems?: number;
  values?: readonly string[];
  /** Texts for the failures this field can have; defaults are `<name> is required` and friends. */
  messages?: { required?: string; invalid?: string; tooLong?: string; tooMany?: string };
  description?: string;
  example?: unknown;
  /** OpenAPI item schema for arrays: a DTO class, or a plain schema object. */
  items?: unknown;
  /** Documented type when it differs from the kind (e.g. a datetime string). */
  format?: string;
  nullable?: boolean;
  /**
   * OpenAPI-only schema keywords (an enum, a pattern, the documented type of a raw query value) for
   * fields the service checks itself, with its own error text; they never change validation.
   */
  doc?: Record<string, unknown>;
  /**
   * A field with rules of its own (several texts for one value, say): replaces the kind's check once
   * the value is present; answers the error text or null. The kind still documents the field.
   */
  check?: (value: unknown) => string | null;
  /** The accepted value in the form the handler receives (a phone number normalised); after `check`. */
  convert?: (value: unknown) => unknown;
}

const SPECS = Symbol('fieldSpecs');

export function fieldSpecs(target: object): Map<string, FieldSpec> {
  return (Reflect.getMetadata(SPECS, target) as Map<string, FieldSpec> | undefined) ?? new Map();
}

/**
 * Absent, null and '' all mean "not given", except for body booleans: only JSON true and false are
 * booleans there, so '' is a wrong value (supplement: Booleans are strict).
 */
function isMissing(value: unknown, spec: FieldSpec): boolean {
  if (value === undefined || value === null) return true;
  return value === '' && !(spec.kind === 'boolean' && (spec.source ?? 'body') === 'body');
}

/** The error text for a value, or null when it is acceptable. Pure, so unit tests cover every rule. */
export function checkField(name: string, spec: FieldSpec, value: unknown): string | null {
  const m = spec.messages ?? {};
  if (isMissing(value, spec)) return spec.required ? (m.required ?? ErrorText.required(name)) : null;
  if (spec.check) return spec.check(value);
  const invalid = m.invalid ?? defaultInvalid(name, spec);
  switch (spec.kind) {
    case 'text':
      if (typeof value !== 'string') return invalid;
      if (!isStorableText(value)) return ErrorText.unstorableText(name);
      if (spec.maxLength !== undefined && value.length > spec.maxLength) return m.tooLong ?? `${name} must be at most ${spec.maxLength} characters`;
      return null;
    case 'integer': {
      const n = toInteger(value);
      if (n === null) return invalid;
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) return invalid;
      return null;
    }
    case 'boolean':
      return toBoolean(value, spec.source ?? 'body') === null ? invalid : null;
    case 'enum':
      return typeof value === 'string' && spec.values!.includes(value) ? null : invalid;
    case 'array':
      if (!Array.isArray(value) || (spec.minItems !== undefined && value.length < spec.minItems)) return invalid;
      if (spec.maxItems !== undefined && value.length > spec.maxItems) return m.tooMany ?? `${name} must have at most ${spec.maxItems} items`;
      return null;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? null : invalid;
  }
}

/** The value in its typed form, once checkField accepted it. */
export function convertField(spec: FieldSpec, value: unknown): unknown {
  if (isMissing(value, spec)) return spec.kind === 'text' && value === '' ? '' : undefined;
  if (spec.convert) return spec.convert(value);
  if (spec.kind === 'integer') return toInteger(value);
  if (spec.kind === 'boolean') return toBoolean(value, spec.source ?? 'body');
  return value;
}

function defaultInvalid(name: string, spec: FieldSpec): string {
  switch (spec.kind) {
    case 'text':
      return `${name} must be a string`;
    case 'integer':
      return spec.min !== undefined && spec.max !== undefined ? `${name} must be between ${spec.min} and ${spec.max}` : `${name} must be a positive integer`;
    case 'boolean':
      return ErrorText.mustBeBoolean(name);
    case 'enum':
      return `${name} must be one of ${spec.values!.join(', ')}`;
    case 'array':
      return `${name} must be an array`;
    case 'object':
      return `${name} must be an object`;
  }
}

/** Digit strings count as integers in bodies too: clients often send ids as strings. */
function toInteger(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

function toBoolean(value: unknown, source: 'body' | 'query'): boolean | null {
  if (typeof value === 'boolean') return value;
  if (source === 'query' && (value === 'true' || value === 'false')) return value === 'true';
  return null;
}

const OPENAPI_TYPE: Record<FieldKind, string> = { text: 'string', integer: 'integer', boolean: 'boolean', enum: 'string', array: 'array', object: 'object' };

export function Field(spec: FieldSpec): PropertyDecorator {
  return (target, propertyKey) => {
    const name = String(propertyKey);
    const specs = new Map(fieldSpecs(target));
    specs.set(name, spec);
    Reflect.defineMetadata(SPECS, specs, target);
    ValidateBy({
      name: 'field',
      validator: {
        validate: (value) => checkField(name, spec, value) === null,
        defaultMessage: (args) => checkField(name, spec, args?.value) ?? '',
      },
    })(target, propertyKey as string);
    const doc = {
      ...(spec.kind === 'array' && typeof spec.items === 'function' ? {} : { type: OPENAPI_TYPE[spec.kind] }),
      description: spec.description,
      example: spec.example,
      ...(spec.kind === 'enum' ? { enum: [...spec.values!] } : {}),
      ...(spec.kind === 'array' ? (typeof spec.items === 'function' ? { type: [spec.items] } : { items: spec.items ?? {} }) : {}),
      ...(spec.kind === 'integer' && spec.min !== undefined ? { minimum: spec.min } : {}),
      ...(spec.kind === 'integer' && spec.max !== undefined ? { maximum: spec.max } : {}),
      ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}),
      ...(spec.maxItems !== undefined ? { maxItems: spec.maxItems } : {}),
      ...(spec.minItems !== undefined ? { minItems: spec.minItems } : {}),
      ...(spec.format ? { format: spec.format } : {}),
      ...(spec.nullable ? { nullable: true } : {}),
      ...(spec.doc ?? {}),
    } as Record<string, unknown>;
    (spec.required ? ApiProperty(doc) : ApiPropertyOptional(doc))(target, propertyKey as string);
  };
}
