import { Injectable } from '@nestjs/common';

/** The time source of every rule that depends on "now"; tests may provide a fixed one. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
