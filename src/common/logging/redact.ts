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

/**
 * Single-use links carry their token as a path segment: set password and reset (emailed), and the
 * own-mobile confirmation link (texted). Cut wherever a URL is logged.
 */
const SECRET_PATH_SEGMENT = /(\/set-password\/|\/senders\/confirm\/)[^/?#"\s\\]+/g;

/** Every secret a serialised log line could carry in a URL. */
export function redactSecrets(line: string): string {
  const withoutQuery = redactQueryCredentials(line);
  return withoutQuery.includes('/set-password/') || withoutQuery.includes('/senders/confirm/') ? withoutQuery.replace(SECRET_PATH_SEGMENT, '$1[redacted]') : withoutQuery;
}
