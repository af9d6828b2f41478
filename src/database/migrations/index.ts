import { Foundation1763700000000 } from './1763700000000-Foundation';

/** In order of application. A new migration is added here as well as generated. */
export const MIGRATIONS = [Foundation1763700000000];
