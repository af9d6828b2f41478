import { Clock } from '../../../src/common/time/clock';

/** A clock that stands still at the given instant. */
export class FakeClock implements Clock {
  constructor(private readonly at: Date) {}

  now(): Date {
    return new Date(this.at.getTime());
  }
}
