import { LINK_TOKEN_PATHS } from './redact-url';

/**
 * Credentials a client put in a query string (`api_username`, `api_password`, e.g. the simple send
 * interface) end up in URLs, and URLs end up in log lines. Applied to every serialised line, so no field,
 * message or stack can carry them. Also matches the percent-encoded underscore.
 */
// The value runs to the next parameter, fragment, space or end of the JSON string (a JSON escape such as
// \" or \\ is part of the value).
const QUERY_CREDENTIAL = /([?&;"]api(?:_|%5f)(?:username|password)=)(?:\\.|[^&;#"\s\\])*/gi;

export function redactQueryCredentials(line: string): string {
  // Cheap pre-check: nearly every line has no such parameter.
  if (!/api(?:_|%5f)(?:username|password)=/i.test(line)) return line;
  return line.replace(QUERY_CREDENTIAL, '$1[redacted]');
}

/** The tokens of the single-use links the service mails and texts (redact-url.ts), wherever a line carries one. */
const SECRET_PATH_SEGMENT = new RegExp(`(${LINK_TOKEN_PATHS.join('|')})[^/?#"\\s\\\\]+`, 'g');

/** Every secret a serialised log line could carry in a URL. */
export function redactSecrets(line: string): string {
  const withoutQuery = redactQueryCredentials(line);
  return LINK_TOKEN_PATHS.some((path) => withoutQuery.includes(path)) ? withoutQuery.replace(SECRET_PATH_SEGMENT, '$1[redacted]') : withoutQuery;
}
