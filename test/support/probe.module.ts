import { Body, Controller, Get, HttpCode, Injectable, Logger, Module, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import { RequiresScope } from '../../src/common/auth/api-scopes';
import { ApiErrors } from '../../src/common/http/api-errors.decorator';
import { BODY_MEDIA_TYPES } from '../../src/common/http/body-media-type';

/** Lets a test hold requests in their handlers (in flight) and release them when it chooses. */
@Injectable()
export class ProbeGate {
  holding = 0;
  private waiters: Array<() => void> = [];

  wait(): Promise<void> {
    this.holding++;
    return new Promise((resolve) =>
      this.waiters.push(() => {
        this.holding--;
        resolve();
      }),
    );
  }

  releaseAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }
}

class ProbeOkDto {
  @ApiProperty()
  ok: boolean;
}

class EchoDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  received: Record<string, unknown>;
}

/** Probe routes mounted only in tests, on the same guards, parser and filter as every real endpoint. */
// Test-only routes behind an API key; any scope will do, every new key holds this one.
@RequiresScope('account')
@Controller('v1/test-probe')
class ProbeController {
  constructor(private readonly gate: ProbeGate) {}

  @Get('hold')
  @ApiOkResponse({ type: ProbeOkDto })
  @ApiErrors(401, 429, 503)
  async hold() {
    await this.gate.wait();
    return { ok: true };
  }

  @Post('echo')
  @HttpCode(200)
  @ApiOkResponse({ type: EchoDto })
  @ApiErrors(400, 401, 413, 429)
  echo(@Body() body: Record<string, unknown> | undefined) {
    return { received: body ?? {} };
  }

  /** Takes text/plain too (as a page route takes forms), to show the Content-Type rule's opt-in. */
  @Post('echo-text')
  @HttpCode(200)
  @RouteConfig({ [BODY_MEDIA_TYPES]: ['text/plain'] })
  @ApiOkResponse({ type: EchoDto })
  @ApiErrors(400, 401, 413, 429)
  echoText(@Body() body: unknown) {
    return { received: body ?? {} };
  }

  @Post('fail')
  @HttpCode(200)
  @ApiOkResponse({ type: ProbeOkDto })
  @ApiErrors(401, 429, 500)
  fail(): never {
    throw new Error('probe failure with secret detail');
  }

  /** Writes a line through Nest's Logger after an await, as services do, to show it carries the request's context. */
  @Get('log')
  @ApiOkResponse({ type: ProbeOkDto })
  @ApiErrors(401, 429)
  async log() {
    await new Promise((resolve) => setImmediate(resolve));
    new Logger('Probe').log({ msg: 'probe line' });
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController], providers: [ProbeGate] })
export class ProbeModule {}
