import { CliLogger, REPORTED_BY_THE_CLI } from '../../../src/cli/cli-logger';
import { RedisService } from '../../../src/common/redis/redis.service';

describe(CliLogger.name, () => {
  const written = () => {
    const lines: string[] = [];
    return { lines, logger: new CliLogger((line) => lines.push(line)) };
  };

  it('shows a service error as one warning line, and nothing below error', () => {
    const { lines, logger } = written();
    logger.log({ msg: 'email (not sent: no SMTP_URL)', body: 'https://x/set-password/secret' }, 'MailService');
    logger.warn({ msg: 'SMTP_URL is not set' }, 'MailService');
    logger.error({ msg: 'email not sent', to: 'owner@example.com.au', err: 'connect ECONNREFUSED 127.0.0.1:25' }, 'MailService');
    logger.error('boom\n  at somewhere', 'Other');
    expect(lines).toEqual(['warning: email not sent (to: owner@example.com.au, err: connect ECONNREFUSED 127.0.0.1:25)', 'warning: boom at somewhere']);
  });

  it("drops what the CLI reports itself: Redis's complaint at start and Nest's ExceptionHandler", () => {
    const { lines, logger } = written();
    logger.error({ msg: 'redis unreachable at start', err: 'Connection is closed.' }, RedisService.name);
    logger.error(new Error('Nest could not resolve a dependency'), 'ExceptionHandler');
    expect(lines).toEqual([]);
    expect(REPORTED_BY_THE_CLI).toContain(RedisService.name);
  });

  it('cuts the secrets every log line is cut of', () => {
    const { lines, logger } = written();
    logger.error({ msg: 'failed', url: 'https://x.example/set-password/tok123' }, 'X');
    expect(lines[0]).not.toContain('tok123');
  });
});
