import { Clock } from '../../src/common/time/clock';

/** A clock that reads `at` until a test moves it. */
export class FixedClock extends Clock {
  constructor(public at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}
