import { ValueTransformer } from 'typeorm';

/** pg returns bigint as a string; our amounts (hundredths of credits) stay far below 2^53. */
export const bigintNumber: ValueTransformer = {
  to: (value?: number | null) => value,
  from: (value?: string | null) => (value === null || value === undefined ? value : Number(value)),
};
