/**
 * The kinds of setting the service reads from its environment. A setting is declared once (app-config.ts):
 * its default, how its text is read, what values it accepts, and a line saying why it exists; its
 * environment variable is its name in upper snake case unless the declaration states another.
 */
export interface Setting<T> {
  readonly default: T;
  /** What the setting is for, in one line (operators read it in the declaration list). */
  readonly why: string;
  /** The environment variable, when it is not the field name in upper snake case. */
  readonly env?: string;
  /** The environment's text as a value, or a complaint about it ('must be an integer number'). */
  read(text: string): { value: T } | { complaint: string };
  /** A complaint about a value (read from the environment or set by a test), or null when it is accepted. */
  check(value: T): string | null;
}

/** The value type of a setting declaration. */
export type ValueOf<S> = S extends Setting<infer T> ? T : never;

interface Described {
  why: string;
  env?: string;
}

/** An integer within bounds (milliseconds, counts, ports). */
export function integer(spec: Described & { default: number; min: number; max?: number }): Setting<number> {
  return {
    default: spec.default,
    why: spec.why,
    env: spec.env,
    read: (text) => (/^-?\d+$/.test(text) ? { value: Number(text) } : { complaint: 'must be an integer number' }),
    check: (value) => {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer number';
      if (value < spec.min) return `must not be less than ${spec.min}`;
      if (spec.max !== undefined && value > spec.max) return `must not be greater than ${spec.max}`;
      return null;
    },
  };
}

/** true/false (also 1/0). */
export function flag(spec: Described & { default: boolean }): Setting<boolean> {
  return {
    default: spec.default,
    why: spec.why,
    env: spec.env,
    read: (text) => (text === 'true' || text === '1' ? { value: true } : text === 'false' || text === '0' ? { value: false } : { complaint: 'must be a boolean value' }),
    check: (value) => (typeof value === 'boolean' ? null : 'must be a boolean value'),
  };
}

/** Text matching a pattern; `message` says what is expected when it does not. */
export function text(spec: Described & { default: string; pattern: RegExp; message: string }): Setting<string> {
  return {
    default: spec.default,
    why: spec.why,
    env: spec.env,
    read: (value) => ({ value }),
    check: (value) => (typeof value === 'string' && spec.pattern.test(value) ? null : spec.message),
  };
}

/** Text that may be left unset (a feature then stays off or falls back); when set it must match `pattern`. */
export function optionalText(spec: Described & { pattern?: RegExp; message?: string }): Setting<string | undefined> {
  return {
    default: undefined,
    why: spec.why,
    env: spec.env,
    read: (value) => ({ value }),
    check: (value) => {
      if (value === undefined) return null;
      if (typeof value !== 'string') return spec.message ?? 'must be a string';
      return !spec.pattern || spec.pattern.test(value) ? null : (spec.message ?? 'is invalid');
    },
  };
}

/** One of a fixed set of words. */
export function oneOf<const T extends string>(spec: Described & { default: NoInfer<T>; values: readonly T[]; message?: string }): Setting<T> {
  const message = spec.message ?? `must be one of ${spec.values.join(', ')}`;
  return {
    default: spec.default,
    why: spec.why,
    env: spec.env,
    read: (value) => ({ value: value as T }),
    check: (value) => ((spec.values as readonly string[]).includes(value) ? null : message),
  };
}

/** `smppTpsPerBind` → `SMPP_TPS_PER_BIND`. */
export function envNameFor(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}
