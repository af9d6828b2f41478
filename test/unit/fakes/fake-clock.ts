import { Clock } from '../../../src/common/time/clock';

/** A clock that stands still at the given instant until a test moves it on. */
export class FakeClock implements Clock {
  private at: Date;

  constructor(at: Date) {
    this.at = new Date(at.getTime());
  }

  now(): Date {
    return new Date(this.at.getTime());
  }

  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}
