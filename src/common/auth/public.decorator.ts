import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';
export const ACCEPTS_QUERY_CREDENTIALS = 'acceptsQueryCredentials';

/** Marks a route that needs no API key (health, metrics, the OpenAPI document). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Marks a route that also takes the API username and password from the query string (`api_username`,
 * `api_password`), as client libraries of the simple send interface do. Basic auth, when sent, wins.
 */
export const AcceptsQueryCredentials = () => SetMetadata(ACCEPTS_QUERY_CREDENTIALS, true);
